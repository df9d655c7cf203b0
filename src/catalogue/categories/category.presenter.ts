import type { I18nString } from '../../common/values/i18n';
import type { ItemCategory } from './item-category.entity';
import { ApiEnum, ApiI18n, ApiInt, ApiIntList } from '../../common/http/api-schemas';
import { CROSS_SELLING_CONDITIONS, CROSS_SELLING_MODES } from './category.dto';

/** Wire form of an item category (compat §3.9). */
export class CategoryJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  name!: I18nString;
  internal_name!: string | null;
  @ApiI18n()
  description!: I18nString;
  @ApiInt()
  position!: number;
  is_addon!: boolean;
  /** null, `both` or `only`. */
  @ApiEnum(CROSS_SELLING_MODES, { nullable: true })
  cross_selling_mode!: string | null;
  /** null, `always`, `products` or `discounts`. */
  @ApiEnum(CROSS_SELLING_CONDITIONS, { nullable: true })
  cross_selling_condition!: string | null;
  /** Item ids, ascending. */
  @ApiIntList()
  cross_selling_match_products!: number[];
}

/** Entity to wire object, field by field; an empty description is `{}`. */
export function toCategoryJson(category: ItemCategory): CategoryJson {
  return {
    id: category.id,
    name: category.name,
    internal_name: category.internalName,
    description: category.description ?? {},
    position: category.position,
    is_addon: category.isAddon,
    cross_selling_mode: category.crossSellingMode,
    cross_selling_condition: category.crossSellingCondition,
    cross_selling_match_products: [...(category.crossSellingMatchProducts ?? [])],
  };
}
