import type { I18nString } from '../../common/values/i18n';
import type { ItemCategory } from './item-category.entity';

/** Wire form of an item category (compat §3.9). */
export class CategoryJson {
  id!: number;
  name!: I18nString;
  internal_name!: string | null;
  description!: I18nString;
  position!: number;
  is_addon!: boolean;
  /** null, `both` or `only`. */
  cross_selling_mode!: string | null;
  /** null, `always`, `products` or `discounts`. */
  cross_selling_condition!: string | null;
  /** Item ids, ascending. */
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
