/**
 * The injection detector's patterns, by category. They read the normalised text of one window (see
 * `_normalize.ts`), which is in lower case (so every letter in a pattern is), except the `cased`
 * ones, which read the raw window. Words may be separated by any run of spaces,
 * punctuation or symbols (`SEP`). Every repetition is bounded or runs over a character class disjoint
 * from what follows it, so no pattern backtracks badly. The module doc of `mod.ts` lists what each
 * category catches, with examples.
 *
 * @module
 */

/** A category and the pattern that finds it. */
export interface InjectionPattern {
  /** The category a match is reported under. */
  category: string;
  /** A global regular expression over normalised text. */
  regex: RegExp;
  /** True when it reads the window's raw text rather than the normalised, lower-case one. */
  cased: boolean;
  /** Texts without any of these cannot match, so the pattern is not run on them (cheap `includes`). */
  gate: readonly string[];
}

/** Any run of characters that are neither letters nor digits. */
const SEP = String.raw`[^\p{L}\p{N}]+`;
/** Spaces (or markdown emphasis) only: for phrases that YAML or object literals could otherwise form
 * across values (`start: true\ninstructions: ...`, `{ version: true, instructions: ... }`). */
const LINE_SEP = String.raw`[ \t*_~-]+`;
/** Up to `n` words from a closed set that may stand between "ignore" and "instructions". Free words
 * would let "forget your passport and all the rules" match; first-person possessives are left out on
 * purpose ("ignore my previous instructions" is a person changing their own request, not an attack). */
const filler = (n: number) =>
  String
    .raw`(?:(?:all|of|the|any|every|everything|in|your|these|those|this|that|above|previous|prior|earlier|preceding|initial|original|system|other|given|current|existing|safety|default|and|its|said)${SEP}){0,${n}}`;
/** Words that say which instructions are meant. */
const WHICH =
  "(?:previous|prior|above|earlier|preceding|foregoing|former|initial|original|system|all|any|every|your)";
/** Nouns for the instructions an attacker wants dropped. */
const RULES = String
  .raw`(?:instructions?|rules?|directives?|directions|guidelines?|prompts?|commands?|constraints?|guardrails?|restrictions?|programming|guidance|polic(?:y|ies)|safeguards?)\b`;
const YOU_ARE = String.raw`you${SEP}?(?:are|r|re)`;
/** What follows a fake "system:" header that shows it is addressed to the model. */
const ADDRESSED = String
  .raw`(?:ignore|disregard|forget|new${SEP}instructions|from${SEP}now${SEP}on|override|reveal|do${SEP}not${SEP}follow|you${SEP}(?:are|must|will|shall|should)${SEP}(?:now|no${SEP}longer|(?:an?${SEP})?(?:ai|assistant|helpful|language|chatbot|unrestricted|unfiltered|uncensored|jailbroken|dan)|obey|follow|comply|ignore|disregard|forget|reveal|act|only)|the${SEP}(?:assistant|ai|model)${SEP}(?:must|will|should)|as${SEP}an${SEP}ai)\b`;
/** Job titles after "act as the system ..." that make it ordinary business text. */
const ROLE_NOUNS = String
  .raw`(?![^\p{L}\p{N}]{0,3}(?:administrator|admin|engineer|architect|owner|integrator|analyst|designer|manager|team|account|user|operator|lead|contact|of${SEP}record))`;
/** A fake role header at the start of a line. */
const HEADER_START = String.raw`^[ \t>*_#-]*`;

function pattern(category: string, gate: string[], source: string, flags = "gu"): InjectionPattern {
  return { category, gate, regex: new RegExp(source, flags), cased: false };
}

function casedPattern(category: string, gate: string[], source: string): InjectionPattern {
  return { category, gate, regex: new RegExp(source, "gu"), cased: true };
}

/** Every injection pattern, compiled once. */
export const INJECTION_PATTERNS: readonly InjectionPattern[] = [
  // instruction_override
  pattern(
    "instruction_override",
    ["ignore", "disregard", "forget", "neglect"],
    String.raw`\b(?:ignore|disregard|forget|neglect)${SEP}${filler(3)}${WHICH}${SEP}${filler(2)}${RULES}`,
  ),
  pattern(
    "instruction_override",
    ["ignore", "disregard", "forget"],
    String
      .raw`\b(?:ignore|disregard|forget)${SEP}(?:(?:all|everything|anything)${SEP}(?:(?:you|that|have|were|was|been|said|told|written|of|the)${SEP}){0,3}(?:above|before|previously|so${SEP}far|until${SEP}now|earlier)|(?:all|everything|anything)${SEP}you${SEP}(?:were|have${SEP}been|got)${SEP}(?:told|given|taught|instructed)|the${SEP}above${SEP}and${SEP}(?:instead|say|print|write|output|respond|reply|tell|translate|repeat))\b`,
  ),
  pattern(
    "instruction_override",
    ["override", "bypass", "circumvent"],
    String
      .raw`\b(?:override|bypass|circumvent)${SEP}(?:(?:your|the|all|any|these|those)${SEP})?(?:safety|system|previous|prior|original|content|ethical)${SEP}(?:\p{L}+${SEP})?(?:instructions|prompts?|rules|guidelines|guardrails|filters?|restrictions|polic(?:y|ies)|safeguards|protocols)\b`,
  ),
  pattern(
    "instruction_override",
    ["instruction", "prompt", "directive"],
    String
      .raw`(?:^|[^\p{L}\p{N}])(?:new|real|actual|true|secret|hidden|override)${LINE_SEP}(?:system${LINE_SEP})?(?:instructions?|prompt|directives?)[ \t]*[:=]`,
  ),
  pattern(
    "instruction_override",
    ["your"],
    String
      .raw`\byour${SEP}(?:(?:real|true|actual)${SEP}(?:instructions|directives|orders|task|purpose|goal|mission)|new${SEP}(?:instructions|directives|orders))${SEP}(?:is|are)\b`,
  ),
  pattern(
    "instruction_override",
    ["now", "henceforth"],
    String
      .raw`\byou${SEP}(?:must|will|shall|should|are${SEP}to|have${SEP}to|need${SEP}to)${SEP}(?:now|henceforth|from${SEP}now${SEP}on)${SEP}(?:(?:always|strictly)${SEP})?(?:ignore|disregard|forget|obey|comply|act${SEP}as|pretend|role${SEP}?play|reveal|disclose|leak|execute|follow${SEP}(?:my|these|the${SEP}new|only)|(?:respond|reply|answer)${SEP}only|only${SEP}(?:respond|reply|answer|output|say|obey|follow)|do${SEP}(?:anything|whatever|as${SEP}i))\b`,
  ),
  pattern(
    "instruction_override",
    ["now"],
    String
      .raw`\bfrom${SEP}now${SEP}on${SEP}(?:you${SEP}(?:will|must|shall|are${SEP}to)${SEP})?(?:ignore|disregard|forget|obey|act${SEP}as|pretend|only${SEP}(?:respond|reply|answer|output|obey|follow)|(?:respond|reply|answer)${SEP}only|you${SEP}are${SEP}no${SEP}longer)\b`,
  ),
  pattern(
    "instruction_override",
    ["follow", "obey", "adhere", "listen", "comply"],
    String
      .raw`\b(?:do${SEP}not|don${SEP}?t|stop|never|no${SEP}longer)${SEP}(?:follow|obey|adhere${SEP}to|listen${SEP}to|comply${SEP}with)${SEP}${
      filler(3)
    }${WHICH}${SEP}${filler(2)}${RULES}`,
  ),
  pattern(
    "instruction_override",
    ["prompt", "instructions", "message"],
    String
      .raw`\b(?:reveal|print|output|repeat|leak|dump|disclose|show${SEP}me)${SEP}(?:your${SEP}(?:(?:full|entire|complete|exact)${SEP})?(?:system|hidden|secret|initial|original|developer|internal)|the${SEP}(?:(?:full|entire|complete|exact)${SEP})?(?:system|hidden|secret|developer|internal))${SEP}(?:prompt|instructions|message)\b`,
  ),
  // role_impersonation
  pattern(
    "role_impersonation",
    ["now", "henceforth"],
    String
      .raw`\b${YOU_ARE}${SEP}(?:now|henceforth|from${SEP}now${SEP}on)${SEP}(?:(?:a|an|the|in|called|named|my)${SEP})?(?:dan(?![^\p{L}\p{N}]s\b)|stan|dude|unrestricted|unfiltered|uncensored|jailbroken|unlocked|unchained|evil|liberated|rogue|developer${SEP}mode|god${SEP}mode|no${SEP}longer${SEP}(?:an?${SEP})?(?:ai|assistant|bound|restricted|chatgpt|claude))\b`,
  ),
  pattern(
    "role_impersonation",
    ["bound", "restricted", "constrained", "governed"],
    String
      .raw`\b${YOU_ARE}${SEP}(?:no${SEP}longer|not)${SEP}(?:bound|restricted|constrained|governed)${SEP}by${SEP}(?:\p{L}+${SEP}){0,2}?(?:rules|guidelines|polic(?:y|ies)|restrictions|ethics|filters|safety|openai|anthropic|programming|instructions)\b`,
  ),
  pattern(
    "role_impersonation",
    ["act", "pretend", "behave", "roleplay", "role", "pose", "masquerade"],
    String
      .raw`\b(?:act|acting|pretend|behave|roleplay|role${SEP}play|pose|masquerade)${SEP}(?:as|like|to${SEP}be|${YOU_ARE})${SEP}(?:(?:the|a|an|my|your)${SEP})?(?:system(?:${SEP}(?:prompt|message|role|itself))?|dan(?![^\p{L}\p{N}]s\b)|unrestricted|unfiltered|uncensored|jailbroken|evil${SEP}(?:ai|assistant|bot)|(?:ai|assistant|model|chatbot)${SEP}(?:with(?:out)?${SEP}(?:no${SEP})?(?:restrictions|filters|limits|rules|guidelines)))\b${ROLE_NOUNS}`,
  ),
  pattern(
    "role_impersonation",
    ["mode"],
    String
      .raw`\b(?:act|acting|respond|answer|reply|simulate|emulate|behave|operate|${YOU_ARE}(?:${SEP}now)?)${SEP}(?:\p{L}+${SEP}){0,3}?(?:in|with)${SEP}(?:the${SEP})?(?:developer|dev|god|jailbreak|dan|unrestricted)${SEP}mode\b`,
  ),
  pattern(
    "role_impersonation",
    ["mode", "anything"],
    String
      .raw`\b(?:(?:enable|activate|enter|engage|switch${SEP}(?:on|to)|turn${SEP}on)${SEP}(?:the${SEP})?(?:god|jailbreak|dan|unrestricted|unfiltered)${SEP}mode|(?:god|jailbreak|dan)${SEP}mode${SEP}(?:enabled|activated|engaged|on)|do${SEP}anything${SEP}now)\b`,
  ),
  pattern(
    "role_impersonation",
    ["system", "sys", "developer"],
    String
      .raw`${HEADER_START}(?:(?:system|developer)(?:${SEP}?(?:prompt|message))?[ \t*_]*:|\[\s*(?:system|sys|developer)(?:\s+(?:message|note))?\s*\]|<\s*(?:system|sys)\s*>)[ \t*_:]*${ADDRESSED}`,
    "gmu",
  ),
  pattern(
    "role_impersonation",
    ["system", "developer", "admin", "inst", "<<", "|>"],
    String
      .raw`${HEADER_START}(?:(?:system|developer)${SEP}?(?:prompt|override)|admin${SEP}override)[ \t*_]*:|\[\s*system\s*(?:prompt|override)\s*\]|\[\s*inst\s*\]|<<\s*sys\s*>>|<\|\s*(?:im_start|start_header_id)\s*\|>\s*(?:system|developer|assistant)\b|<\|\s*(?:system|developer)\s*\|>`,
    "gmu",
  ),
  pattern(
    "role_impersonation",
    ["assistant", "chatgpt", "claude", "gpt"],
    String
      .raw`${HEADER_START}(?:assistant|chatgpt|claude|gpt)[ \t*_]*:[ \t*_]*(?:sure|understood|certainly|of${SEP}course|ok(?:ay)?|i${SEP}will|i${SEP}?ll|as${SEP}requested|absolutely)\b`,
    "gmu",
  ),
  pattern(
    "role_impersonation",
    ["#", "["],
    String
      .raw`^[ \t]*#{1,4}[ \t]*(?:instruction|system(?:${SEP}prompt)?|new${SEP}instructions?)[ \t]*:|^[ \t]*\[(?:context${SEP}state|budget${SEP}remaining|trigger:)`,
    "gmu",
  ),
  // delimiter_escape
  pattern(
    "delimiter_escape",
    ["<"],
    String
      .raw`<\s*\/\s*untrusted|<\s*untrusted[-_]|<\s*\/\s*(?:system(?:[-_]prompt)?|instructions?|user[-_]?input|tool[-_](?:results?|outputs?)|function[-_]results?|human|assistant|prompt|trusted[-_][\w-]*|operator[-_]messages?|context[-_]state)\s*>`,
  ),
  pattern(
    "delimiter_escape",
    ["|>", "inst", "sys", "_of_turn"],
    String
      .raw`<\|\s*(?:im_start|im_end|im_sep|endoftext|eot_id|eom_id|start_header_id|end_header_id|begin_of_text|end_of_text|endofprompt|end|fim_(?:prefix|middle|suffix))\s*\|>|\[\s*\/\s*inst\s*\]|<<\s*\/\s*sys\s*>>|<\s*(?:start|end)_of_turn\s*>`,
  ),
  pattern(
    "delimiter_escape",
    ["```"],
    String
      .raw`\x60{3,}[ \t]*(?:system|assistant|developer|instructions?)[ \t]*(?::|\r?\n|$)|\x60{3,}[ \t]*\r?\n\s*(?:\[\s*(?:system|inst)\s*\]|<\|\s*im_start|<<\s*sys|#{1,4}[ \t]*(?:instruction|system(?:${SEP}?prompt)?)[ \t]*:|(?:system|developer)(?:${SEP}?(?:prompt|override))?[ \t]*:[ \t]*(?:ignore|disregard|forget|you${SEP}(?:are|must|will)|new${SEP}instructions|from${SEP}now))`,
  ),
  pattern(
    "delimiter_escape",
    ["end", "operator"],
    String
      .raw`(?:^|[\[<(=#*|-])[ \t]*end${SEP}of${SEP}(?:(?:the|user|untrusted|external)${SEP})?(?:input|payload|prompt|instructions)[ \t]*(?:[-=#*\])>|]|$)|={2,}[ \t]*(?:end[ \t]+)?operator[ \t]+messages`,
    "gmu",
  ),
  casedPattern(
    "delimiter_escape",
    ["END"],
    String
      .raw`\bEND${SEP}OF${SEP}(?:THE${SEP})?(?:(?:USER|UNTRUSTED|EXTERNAL|CUSTOMER)${SEP}(?:INPUT|DATA|MESSAGE|TEXT|CONTENT|DOCUMENT|PAYLOAD)|(?:SYSTEM${SEP})?(?:INPUT|PAYLOAD|PROMPT|CONTEXT|INSTRUCTIONS))\b`,
  ),
  // tool_call_smuggling
  pattern(
    "tool_call_smuggling",
    ["tool_", "function_call", "recipient_name", "arguments"],
    String
      .raw`["'](?:tool_calls|function_call|tool_call_id|tool_use_id|recipient_name)["']\s*:|["']type["']\s*:\s*["'](?:tool_use|tool_call|function_call|tool_result)["']|["']name["']\s*:\s*["'][^"'\n]{1,80}["']\s*,\s*["']arguments["']\s*:`,
  ),
  pattern(
    "tool_call_smuggling",
    ["<", "to=functions", "tool_calls", "|>"],
    String
      .raw`<\s*\/?\s*(?:tool_calls?|function_calls?|tool_use)\s*>|<\s*(?:tool_result|function_results?)\s*>|<\s*(?:[a-z]+:)?invoke\s+name\s*=|<\s*[a-z]+:parameter\s+name\s*=|\bto=functions\.[a-z_]|\[\s*tool_calls\s*\]|<\|\s*(?:tool_call|python_tag|tool_calls_begin|tool_sep)\s*\|>`,
  ),
];
