import { toMoney } from '../../common/values/money';
import type { ItemBundle } from './item-bundle.entity';

/** Wire form of an item bundle (spec "Item bundle"; compat §3.13), as its endpoints and items (inline) return it. */
export class BundleJson {
  id!: number;
  bundled_item!: number;
  bundled_variation!: number | null;
  count!: number;
  /** Money string with two decimals. */
  designated_price!: string;
}

/** Entity to wire object, field by field. */
export function toBundleJson(bundle: ItemBundle): BundleJson {
  return {
    id: bundle.id,
    bundled_item: bundle.bundledItemId,
    bundled_variation: bundle.bundledVariationId,
    count: bundle.count,
    designated_price: toMoney(bundle.designatedPrice),
  };
}
