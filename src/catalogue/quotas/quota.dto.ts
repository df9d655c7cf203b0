import { applyDecorators } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';
import { ApiInt } from '../../common/http/api-schemas';
import {
  IsBool,
  IsInteger,
  IsIntList,
  IsStr,
  Nullable,
  Optional,
  Required,
  rule,
} from '../../common/validation/fields';

/**
 * A primary-key reference (DRF `PrimaryKeyRelatedField`): an integer, else
 * `Incorrect type. Expected pk value, received str.` (compat §1.5). Existence is checked by the service.
 */
function IsPk(): PropertyDecorator {
  const check = rule('isPk', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v)) return null;
    const type =
      typeof v === 'string' ? 'str' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'dict' : typeof v;
    return `Incorrect type. Expected pk value, received ${type}.`;
  });
  return applyDecorators(check, ApiInt());
}

/**
 * Body of `POST E/quotas/` and `PUT E/quotas/{id}/` (spec "Quota"; compat §3.14). `available` and
 * `available_number` are read-only and ignored; so is `id`.
 */
export class CreateQuotaDto {
  @Required()
  @IsStr({ max: 200, blank: false })
  name!: string;

  /** Number of places; null (the default) means unlimited. */
  @Nullable()
  @IsInteger({ min: 0 })
  size?: number | null;

  /** Item ids of this event; default `[]`. */
  @Optional()
  @IsIntList()
  items?: number[];

  /** Variation ids of items in `items`; default `[]`. */
  @Optional()
  @IsIntList()
  variations?: number[];

  /** Sub-event id (required for event series); sub-events do not exist yet, so only null is accepted. */
  @Nullable()
  @IsPk()
  subevent?: number | null;

  /** Close the quota once it is sold out; it then stays closed until reopened (spec "States and transitions"). */
  @Optional()
  @IsBool()
  close_when_sold_out?: boolean;

  @Optional()
  @IsBool()
  closed?: boolean;

  /** Regain capacity when tickets are scanned at an exit. */
  @Optional()
  @IsBool()
  release_after_exit?: boolean;

  @Optional()
  @IsBool()
  ignore_for_event_availability?: boolean;
}

/** Body of `PATCH E/quotas/{id}/`: every field optional; null only where create allows it. */
export class UpdateQuotaDto extends PartialType(CreateQuotaDto, { skipNullProperties: false }) {}
