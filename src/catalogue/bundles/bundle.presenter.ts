import { toMoney } from '../../common/values/money';
import type { ItemBundle } from './item-bundle.entity';
import { ApiInt, ApiMoney } from '../../common/http/api-schemas';

/** Wire form of an item bundle (spec "Item bundle"; compat §3.13), as its endpoints and items (inline) return it. */
export class BundleJson {
  @ApiInt()
  id!: number;
  @ApiInt()
  bundled_item!: number;
  @ApiInt({ nullable: true })
  bundled_variation!: number | null;
  @ApiInt()
  count!: number;
  /** Money string with two decimals. */
  @ApiMoney()
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
