import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsI18nString,
  IsInteger,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';

/** Body of `POST O/membershiptypes/` and `PUT O/membershiptypes/{id}/` (compat §3.6). */
export class CreateMembershipTypeDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  /** Usable by several persons (default false). */
  @Optional()
  @IsBool()
  transferable?: boolean;

  /** Usable for several tickets valid at the same time (default false). */
  @Optional()
  @IsBool()
  allow_parallel_usage?: boolean;

  /** Maximum number of uses, at least 1; null (the default) means unlimited. */
  @Nullable()
  @IsInteger({ min: 1 })
  max_usages?: number | null;
}

/** Body of `PATCH O/membershiptypes/{id}/`: every field optional; null only for `max_usages`. */
export class UpdateMembershipTypeDto extends PartialType(CreateMembershipTypeDto, {
  skipNullProperties: false,
}) {}
