import { Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { FieldErrors, ValidationFailed } from '../../common/errors';
import { toFieldErrors } from '../../common/validation/validation.pipe';
import { LIMITS, tooManyMessage } from '../../config/limits';
import { CreateVoucherDto } from './voucher.dto';

/** DRF's name of a JSON value's type in "Expected a list of items but got type ..." messages. */
function typeName(value: unknown): string {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)))
    return 'dict';
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/**
 * Body pipe of `POST E/vouchers/batch_create/` (compat §3.23): the body must be a JSON list (a missing body or an
 * object → 400 `{"non_field_errors": ["Expected a list of items but got type \"dict\"."]}`) of at most
 * `LIMITS.vouchersPerBatch` entries (else 400 `{"non_field_errors": ["Ensure this field has no more than 5000
 * elements."]}`, README "Limits"); each entry is
 * validated and whitelisted like the body of a single create (`CreateVoucherDto`). Invalid entries answer 400
 * with a list aligned with the input, `{}` for valid entries: `[{}, {"code": ["..."]}]`. As for a single voucher,
 * these field checks come first; the rules between fields and objects follow in the service (same aligned shape).
 * @throws ValidationFailed
 */
@Injectable()
export class VoucherListPipe implements PipeTransform<unknown, Promise<CreateVoucherDto[]>> {
  async transform(value: unknown): Promise<CreateVoucherDto[]> {
    if (!Array.isArray(value)) {
      throw ValidationFailed.nonField(`Expected a list of items but got type "${typeName(value)}".`);
    }
    if (value.length > LIMITS.vouchersPerBatch) {
      throw ValidationFailed.nonField(tooManyMessage(LIMITS.vouchersPerBatch));
    }
    const entries: CreateVoucherDto[] = [];
    const errors: FieldErrors[] = [];
    for (const raw of value as unknown[]) {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        const got = raw === null ? 'null' : typeName(raw);
        errors.push({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
        continue;
      }
      const dto = plainToInstance(CreateVoucherDto, raw);
      const problems = await validate(dto, {
        whitelist: true,
        forbidNonWhitelisted: false,
        stopAtFirstError: true,
        validationError: { target: false, value: true },
      });
      errors.push(toFieldErrors(problems));
      entries.push(dto);
    }
    if (errors.some((e) => Object.keys(e).length > 0)) {
      // A list of per-entry objects (the batch shape).
      throw new ValidationFailed(errors);
    }
    return entries;
  }
}
