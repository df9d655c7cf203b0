import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsI18nString,
  IsInteger,
  IsIntList,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';

/** `cross_selling_mode` choices besides null (compat §3.9). */
export const CROSS_SELLING_MODES = ['both', 'only'] as const;
/** `cross_selling_condition` choices besides null (compat §3.9). */
export const CROSS_SELLING_CONDITIONS = ['always', 'products', 'discounts'] as const;

/** Body of `POST E/categories/` and `PUT E/categories/{id}/` (compat §3.9). */
export class CreateCategoryDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  @Nullable()
  @IsStr({ max: 255 })
  internal_name?: string | null;

  /** Multi-lingual description; default `{}`. */
  @Optional()
  @IsI18nString()
  description?: string | I18nString;

  @Optional()
  @IsInteger()
  position?: number;

  @Optional()
  @IsBool()
  is_addon?: boolean;

  /** null, `both` or `only`. */
  @Nullable()
  @IsChoice(CROSS_SELLING_MODES)
  cross_selling_mode?: string | null;

  /** null, `always`, `products` or `discounts`. */
  @Nullable()
  @IsChoice(CROSS_SELLING_CONDITIONS)
  cross_selling_condition?: string | null;

  /** Item ids of the same event. */
  @Optional()
  @IsIntList()
  cross_selling_match_products?: number[];
}

/** Body of `PATCH E/categories/{id}/`: every field optional; null only where create allows it. */
export class UpdateCategoryDto extends PartialType(CreateCategoryDto, { skipNullProperties: false }) {}
