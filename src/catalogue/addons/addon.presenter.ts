import type { ItemAddon } from './item-addon.entity';
import { ApiInt } from '../../common/http/api-schemas';

/** Wire form of an item add-on (spec "Item add-on"; compat §3.12), as its endpoints and items (inline) return it. */
export class AddonJson {
  @ApiInt()
  id!: number;
  /** Category id the add-on products are chosen from. */
  @ApiInt()
  addon_category!: number;
  @ApiInt()
  min_count!: number;
  @ApiInt()
  max_count!: number;
  @ApiInt()
  position!: number;
  multi_allowed!: boolean;
  price_included!: boolean;
}

/** Entity to wire object, field by field. */
export function toAddonJson(addon: ItemAddon): AddonJson {
  return {
    id: addon.id,
    addon_category: addon.addonCategoryId,
    min_count: addon.minCount,
    max_count: addon.maxCount,
    position: addon.position,
    multi_allowed: addon.multiAllowed,
    price_included: addon.priceIncluded,
  };
}
