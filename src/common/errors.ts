/**
 * Domain errors: plain classes with no HTTP framework behind them (style.md "Errors"). Services,
 * processors, guards and helpers throw these; the one global exception filter (`common/http/exception.filter.ts`)
 * maps each to its status code, headers and body in the shapes of compat §1.5 (`{"detail": ...}`,
 * `{"field": [...]}`, `{"non_field_errors": [...]}` or a bare list). A context may subclass them to give a rule
 * its domain name (`ActionRefused` of the order actions is an {@link InvalidRequest}).
 */

/** Base of every domain error; `name` is the concrete class name (for logs). */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** DRF's message for an id that names no row (in reach): `Invalid pk "5" - object does not exist.` */
export const invalidPk = (id: number | string): string => `Invalid pk "${id}" - object does not exist.`;

/** A map of field name to messages, possibly nested (`{"positions": [{}, {"item": ["..."]}]}`). */
export type FieldErrors = { [field: string]: string[] | FieldErrors | FieldErrors[] };

/**
 * Bodies a 400 can have (compat §1.5): field-keyed errors, a bare list of messages, a list of per-entry errors
 * aligned with a batch (`[{}, {"code": [...]}]`), or pretix's `{"error": "..."}` of cart bulk creation.
 */
export type ValidationBody = FieldErrors | FieldErrors[] | string[] | { error: string };

/** Invalid input: 400 with the body as given ({@link ValidationBody}). */
export class ValidationFailed extends DomainError {
  constructor(public readonly errors: ValidationBody) {
    super('Validation failed');
  }

  /** One message on one field (`non_field_errors` for cross-field rules). */
  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ [field]: [message] });
  }

  static nonField(message: string): ValidationFailed {
    return new ValidationFailed({ non_field_errors: [message] });
  }

  /** pretix's bare-list form (`["This user already has permissions for this team."]`). */
  static bare(message: string): ValidationFailed {
    return new ValidationFailed([message]);
  }
}

/** A request the resource's state does not allow, answered 400 `{"detail": "..."}` (e.g. compat §4.4 actions). */
export class InvalidRequest extends DomainError {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** 401 `{"detail"}` with `WWW-Authenticate: Token`: no credential, or one that is unknown or inactive (compat §1.2). */
export class NotAuthenticated extends DomainError {
  constructor(readonly detail = 'Authentication credentials were not provided.') {
    super(detail);
  }
}

/** 403 for a business-rule refusal with a custom message (pretix raises PermissionDenied). */
export class Refused extends DomainError {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** 403 `{"detail": "You do not have permission to perform this action."}`: no permission, or no such scope. */
export class PermissionDenied extends Refused {
  constructor() {
    super('You do not have permission to perform this action.');
  }
}

/**
 * 403 `{"detail": "You do not have permission to perform this action."}` for the parent of a nested route (the item
 * of `E/items/{item}/variations/`, the question of `options/`, the team of `members/`, the check-in list of
 * `positions/`, the gift card of `transactions/`) that does not exist in the URL's event or organizer: the spec
 * ("Status codes that apply everywhere") treats a missing parent like a missing organizer or event, where pretix
 * answers 404 (compat §2 "Consequence for black-box tests"; the spec wins).
 */
export class ParentNotFound extends PermissionDenied {}

/** 403: the row is used by others (ordered items, redeemed vouchers, tax rules in use; pretix's refusals). */
export class ResourceInUse extends Refused {}

/** 404 `{"detail": "Not found."}` for an id that does not exist inside the accessible scope. */
export class NotFound extends DomainError {
  constructor(readonly detail = 'Not found.') {
    super(detail);
  }
}

/**
 * 409 with a field-keyed body: a request that is valid but conflicts with the state of a field, e.g. a gift card
 * debit beyond its balance (compat §3.4: `{"value": ["The gift card does not have sufficient credit for this
 * operation."]}`).
 */
export class FieldConflict extends DomainError {
  constructor(public readonly errors: FieldErrors) {
    super('Conflict');
  }

  static field(field: string, message: string): FieldConflict {
    return new FieldConflict({ [field]: [message] });
  }
}

/** 409 `{"detail"}` with an optional `Retry-After` (seconds). */
export class Conflict extends DomainError {
  constructor(
    readonly detail: string,
    readonly retryAfter?: number,
  ) {
    super(detail);
  }
}

/** The server was too busy (a lock wait ran out, a deadlock, a serialization failure, a statement timeout). */
export const BUSY_DETAIL = 'The server was too busy to process your request. Please try again.';

/**
 * A row lock was not had in time (PostgreSQL 55P03, and deadlocks/serialization failures/statement timeouts):
 * 409 `{"detail": BUSY_DETAIL}` with `Retry-After: 5` (spec: "retry later").
 */
export class LockTimeout extends Conflict {
  constructor() {
    super(BUSY_DETAIL, 5);
  }
}

/** 304 Not Modified with no body (compat §1.7 conditional lists); headers already set stay. */
export class NotModified extends DomainError {
  constructor() {
    super('Not modified');
  }
}

/** 412 `{"detail": "Precondition failed."}` (compat §1.7 `If-Unmodified-Since`). */
export class PreconditionFailed extends DomainError {
  constructor(readonly detail = 'Precondition failed.') {
    super(detail);
  }
}

/** 429 `{"detail": "Request was throttled. Expected available in N seconds."}` with `Retry-After: N`. */
export class Throttled extends DomainError {
  constructor(readonly retryAfter: number) {
    super(`Request was throttled. Expected available in ${retryAfter} seconds.`);
  }
}

/**
 * An asynchronous task has not finished yet: 409 `{"status": "waiting"|"running"}` with `Retry-After` (seconds)
 * (spec "Shredders", "Invoices" download); with `percentage` (a number or null) in the body when given (pretix's
 * exporter downloads).
 */
export class TaskNotReady extends DomainError {
  constructor(
    readonly state: 'waiting' | 'running',
    readonly retryAfter = 1,
    readonly percentage?: number | null,
  ) {
    super(`Task ${state}`);
  }
}

/**
 * An asynchronous task failed (`failed`) or is unknown, expired or another credential's (`gone`), with the
 * message for the client. `task` says what ran: a failed shred run (`shred`) is answered differently from any
 * other failed task (`task`). The filter answers 417 for a failed shred, else 410, with body
 * `{"status": state, "message"}` (spec "Shredders"; style.md "Errors").
 */
export class TaskFailed extends DomainError {
  constructor(
    readonly detail: string,
    readonly state: 'failed' | 'gone' = 'failed',
    readonly task: 'shred' | 'task' = 'task',
  ) {
    super(detail);
  }
}

/** A dependency (the queue's Redis) is unreachable: 503 `{"detail"}` with `Retry-After` (seconds). */
export class ServiceUnavailable extends DomainError {
  constructor(
    readonly detail = 'The service is temporarily unavailable. Please try again later.',
    readonly retryAfter = 10,
  ) {
    super(detail);
  }
}

/** 410 `{"detail"}`: what the request points at existed once and is gone for good (an expired change feed cursor). */
export class Gone extends DomainError {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** 422 `{"detail"}`: a request that is well-formed but cannot be processed as sent (an idempotency key reused). */
export class UnprocessableRequest extends DomainError {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/**
 * A response stored earlier for the same idempotency key (compat §1.8), replayed byte for byte: status, the
 * replayed headers and the raw body.
 */
export class StoredResponse extends DomainError {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer | null,
  ) {
    super(`stored response ${status}`);
  }
}

/**
 * A scan that did not admit (compat §3.21 redeem): `ticket` says whether the secret named a ticket of the list's
 * event (`known`: the filter answers 400 `{"status": "error" | "incomplete", "reason", …}`) or none (`unknown`:
 * 404 `{"status": "error", "reason": "invalid", …}`). The body is the scanner's answer as the check-in context
 * builds it (style.md "Errors": no HTTP status in the error).
 */
export class CheckinRefused extends DomainError {
  constructor(
    readonly ticket: 'known' | 'unknown',
    readonly body: Record<string, unknown>,
  ) {
    super(`check-in refused: ${String(body.reason ?? body.status)}`);
  }
}

/** Collects field errors for a resource and throws them together. */
export class ErrorCollector {
  private readonly errors: Record<string, string[]> = {};

  add(field: string, message: string): this {
    (this.errors[field] ??= []).push(message);
    return this;
  }

  addNonField(message: string): this {
    return this.add('non_field_errors', message);
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  toJSON(): FieldErrors {
    return { ...this.errors };
  }

  /** @throws ValidationFailed when any error was added. */
  throwIfAny(): void {
    if (!this.empty) throw new ValidationFailed(this.toJSON());
  }
}
