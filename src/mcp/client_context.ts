/**
 * Who is calling: the identity an auth provider established for one request.
 *
 * @module
 */

/** Fields of a {@linkcode ClientContext}; only `clientId` is required. */
export interface ClientContextInit {
  /** Stable caller id (JWT `sub`/`client_id`, or the API key's client id). */
  clientId: string;
  /** Tenant the caller belongs to, when known. */
  tenantId?: string;
  /** Roles held. */
  roles?: Iterable<string>;
  /** OAuth scopes granted (JWT `scope` claim only; API keys carry none). */
  scopes?: Iterable<string>;
  /** Verified token claims; empty for API-key auth. */
  claims?: Record<string, unknown>;
  /** Token issuer (`iss`). */
  issuer?: string;
  /** Token audience (`aud`). */
  audience?: string | string[];
  /** Token subject (`sub`). */
  subject?: string;
  /** Issued-at time, epoch seconds (`iat`). */
  issuedAt?: number;
  /** Expiry, epoch seconds (`exp`). */
  expiresAt?: number;
  /** Caller's IP address, when the transport knows it. */
  ipAddress?: string;
  /** The `user-agent` header. */
  userAgent?: string;
  /** Anything an `onAuthenticate` hook adds. */
  extra?: Record<string, unknown>;
}

/** The authenticated caller of one request. */
export class ClientContext {
  /** Stable caller id. */
  readonly clientId: string;
  /** Tenant id, when the credential carries one. */
  readonly tenantId?: string;
  /** Roles held. */
  readonly roles: ReadonlySet<string>;
  /** Scopes granted. */
  readonly scopes: ReadonlySet<string>;
  /** Verified claims (empty for API keys). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** Token issuer. */
  readonly issuer?: string;
  /** Token audience. */
  readonly audience?: string | string[];
  /** Token subject. */
  readonly subject?: string;
  /** Issued-at, epoch seconds. */
  readonly issuedAt?: number;
  /** Expiry, epoch seconds. */
  readonly expiresAt?: number;
  /** Caller IP address. */
  readonly ipAddress?: string;
  /** Caller user agent. */
  readonly userAgent?: string;
  /** Extra fields set by hooks. */
  readonly extra: Record<string, unknown>;

  /** A caller from its fields. */
  constructor(init: ClientContextInit) {
    this.clientId = init.clientId;
    this.tenantId = init.tenantId;
    this.roles = new Set(init.roles ?? []);
    this.scopes = new Set(init.scopes ?? []);
    this.claims = init.claims ?? {};
    this.issuer = init.issuer;
    this.audience = init.audience;
    this.subject = init.subject;
    this.issuedAt = init.issuedAt;
    this.expiresAt = init.expiresAt;
    this.ipAddress = init.ipAddress;
    this.userAgent = init.userAgent;
    this.extra = init.extra ?? {};
  }

  /** Whether the caller holds `role`. */
  hasRole(role: string): boolean {
    return this.roles.has(role);
  }

  /** Whether the caller holds at least one of `roles`. */
  hasAnyRole(...roles: string[]): boolean {
    return roles.some((role) => this.roles.has(role));
  }

  /** Whether the caller holds every one of `roles`. */
  hasAllRoles(...roles: string[]): boolean {
    return roles.every((role) => this.roles.has(role));
  }

  /** Whether the caller was granted `scope`. */
  hasScope(scope: string): boolean {
    return this.scopes.has(scope);
  }

  /** Whether the caller was granted at least one of `scopes`. */
  hasAnyScope(...scopes: string[]): boolean {
    return scopes.some((scope) => this.scopes.has(scope));
  }
}
