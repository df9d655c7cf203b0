import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldErrors, ValidationFailed } from '../errors';

/** Turns class-validator errors into DRF-shaped bodies; lists of nested objects stay aligned with the input. */
export function toFieldErrors(errors: ValidationError[]): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      out[error.property] = Object.values(error.constraints).slice(0, 1);
    } else if (error.children && error.children.length > 0) {
      if (Array.isArray(error.value)) {
        const aligned: (FieldErrors | string[])[] = (error.value as unknown[]).map(() => ({}));
        for (const child of error.children) {
          const index = Number(child.property);
          aligned[index] =
            child.constraints && Object.keys(child.constraints).length > 0
              ? Object.values(child.constraints).slice(0, 1)
              : toFieldErrors(child.children ?? []);
        }
        out[error.property] = aligned as FieldErrors[];
      } else {
        out[error.property] = toFieldErrors(error.children);
      }
    }
  }
  return out;
}

/**
 * The global body/query validation pipe: whitelists declared fields (unknown and read-only fields are ignored,
 * compat §3), reports the first problem per field, and rejects a body that is not a JSON object where a DTO is
 * expected (`{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`).
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: false,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailed(toFieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        const got = Array.isArray(value)
          ? 'list'
          : value === undefined || value === null
            ? 'null'
            : typeof value;
        if (value === undefined) value = {};
        else
          throw new ValidationFailed({
            non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`],
          });
      }
    }
    return super.transform(value, metadata);
  }
}
