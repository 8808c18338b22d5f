import assert from "node:assert/strict";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { callFailure } from "./_session_watch.ts";

const CALL = { server: "s", tool: "t", timeoutMs: 250 };

Deno.test("callFailure words a timeout, a server's refusal and input an agent cannot give", () => {
  assert.deepEqual(callFailure(new SdkError(SdkErrorCode.RequestTimeout, "late"), CALL), {
    isError: true,
    content: "tool t on server s did not answer within 250 ms",
  });
  assert.deepEqual(callFailure(new ProtocolError(-32602, "bad arguments"), CALL), {
    isError: true,
    content: "server s refused the call: bad arguments",
  });
  const asked = new SdkError(SdkErrorCode.CapabilityNotSupported, "no handler", {
    key: "e1",
    method: "sampling/createMessage",
  });
  assert.deepEqual(callFailure(asked, CALL), {
    isError: true,
    content: "server s asked for input during tool t (sampling/createMessage), which this agent cannot give",
  });
  const invalid = callFailure(
    new SdkError(SdkErrorCode.InvalidResult, "structuredContent does not match"),
    CALL,
  );
  assert.equal(invalid?.isError, true);
  assert.match(invalid!.content, /^server s gave an answer to tool t that could not be used: /);
});

Deno.test("callFailure leaves connection failures to the reconnect (undefined)", () => {
  assert.equal(callFailure(new SdkError(SdkErrorCode.ConnectionClosed, "closed"), CALL), undefined);
  assert.equal(
    callFailure(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "gone", { status: 404 }), CALL),
    undefined,
  );
  assert.equal(callFailure(new TypeError("fetch failed"), CALL), undefined);
});
