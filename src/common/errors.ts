import {
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  NotFoundException,
} from '@nestjs/common';

/**
 * Domain exceptions. Services throw these; the global exception filter renders them with the bodies of
 * compat §1.5 (`{"detail": ...}`, `{"field": [...]}`, `{"non_field_errors": [...]}` or a bare list).
 */

/** DRF's message for an id that names no row (in reach): `Invalid pk "5" - object does not exist.` */
export const invalidPk = (id: number | string): string => `Invalid pk "${id}" - object does not exist.`;

/** A map of field name to messages, possibly nested (`{"positions": [{}, {"item": ["..."]}]}`). */
export type FieldErrors = { [field: string]: string[] | FieldErrors | FieldErrors[] };

/** 400 with a field-keyed body. */
/**
 * Bodies a 400 can have (compat §1.5): field-keyed errors, a bare list of messages, a list of per-entry errors
 * aligned with a batch (`[{}, {"code": [...]}]`), or pretix's `{"error": "..."}` of cart bulk creation.
 */
export type ValidationBody = FieldErrors | FieldErrors[] | string[] | { error: string };

export class ValidationFailed extends HttpException {
  constructor(public readonly errors: ValidationBody) {
    super(errors, HttpStatus.BAD_REQUEST);
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

/** 403 for a business-rule refusal with a custom message (pretix raises PermissionDenied). */
export class Refused extends ForbiddenException {
  constructor(detail: string) {
    super({ detail });
  }
}

/** 404 `{"detail": "Not found."}` for an id that does not exist inside the accessible scope. */
export class NotFound extends NotFoundException {
  constructor(detail = 'Not found.') {
    super({ detail });
  }
}

/** 409 with a detail and optional Retry-After (lock timeouts, tasks not ready). */
export class Conflict extends ConflictException {
  constructor(
    detail: string,
    public readonly retryAfter?: number,
  ) {
    super({ detail });
  }
}

/**
 * An asynchronous task has not finished yet: 409 `{"status": "waiting"|"running"}` with `Retry-After` (seconds)
 * (spec "Shredders", "Invoices" download).
 */
export class TaskNotReady extends Error {
  constructor(
    readonly state: 'waiting' | 'running',
    readonly retryAfter = 1,
  ) {
    super(`Task ${state}`);
  }
}

/**
 * An asynchronous task failed or is gone: `httpStatus` 410 (417 for a failed shred) with body
 * `{"status": "failed"|"gone", "message"}` (spec "Shredders").
 */
export class TaskFailed extends Error {
  constructor(
    readonly httpStatus: 410 | 417,
    readonly detail: string,
    readonly state: 'failed' | 'gone' = 'failed',
  ) {
    super(detail);
  }
}

/** A dependency (the queue's Redis) is unreachable: 503 `{"detail"}` with `Retry-After` (seconds). */
export class ServiceUnavailable extends Error {
  constructor(
    readonly detail = 'The service is temporarily unavailable. Please try again later.',
    readonly retryAfter = 10,
  ) {
    super(detail);
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
