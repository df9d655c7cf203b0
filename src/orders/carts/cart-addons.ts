import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SalesCatalogue, subeventListedPrice } from '../../catalogue/sales/sales-catalogue.service';
import { ValidationFailed } from '../../common/errors';
import { i18nText } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import { listedPrice } from '../create/pricing';
import { addonProblem } from '../writing/sales.rules';
import { CartAddonInputDto, CreateCartPositionDto } from './cart-position.dto';
import type { CartDraft } from './cart-positions.rules';

/**
 * An add-on entry as a cart entry of its own (checked by the same rules as the parent): no cart id, voucher, seat
 * or add-ons; the price stays unset when not sent (computed by the add-on rules).
 */
export function addonEntry(parent: CreateCartPositionDto, a: CartAddonInputDto): CreateCartPositionDto {
  return Object.assign(new CreateCartPositionDto(), {
    item: a.item,
    variation: a.variation,
    price: a.price ?? undefined,
    attendee_name: a.attendee_name,
    attendee_name_parts: a.attendee_name_parts,
    attendee_email: a.attendee_email,
    subevent: a.subevent,
    includes_tax: a.includes_tax,
    answers: a.answers,
    sales_channel: parent.sales_channel,
  });
}

/**
 * Add-ons of API cart positions (compat §3.2 `addons`, §3.12): the parent item's add-on configurations checked
 * with the rule shared by the sales side, and the prices of add-ons sent without one.
 */
@Injectable()
export class CartAddons {
  constructor(private readonly catalogue: SalesCatalogue) {}

  /**
   * The add-on rules of the parent's item (compat §3.12, shared {@link addonProblem}): categories, counts and
   * repeated products; then the prices of add-ons sent without one (listed price, 0 when the configuration
   * includes it). One statement for the configurations.
   * @throws ValidationFailed `{"addons": ["..."]}`
   */
  async check(em: EntityManager, event: Event, parent: CartDraft, addons: CartDraft[]): Promise<void> {
    const configs = await this.catalogue.addonConfigs(em, [parent.product.itemId]);
    const refs = await this.catalogue.load(em, event, {
      itemIds: [parent.product.itemId, ...addons.map((a) => a.product.itemId)],
      variationIds: addons.map((a) => a.product.variationId),
      subeventIds: addons.map((a) => a.product.subeventId),
    });
    const name = (itemId: number) => i18nText(refs.items.get(itemId)?.name);
    const problem = addonProblem(
      name(parent.product.itemId),
      addons.map((a) => ({
        itemId: a.product.itemId,
        variationId: a.product.variationId,
        categoryId: refs.items.get(a.product.itemId)?.categoryId ?? null,
        name: name(a.product.itemId),
      })),
      configs.map((c) => ({ ...c, categoryName: i18nText(c.categoryName) })),
    );
    if (problem) throw ValidationFailed.field('addons', problem);
    for (const a of addons) {
      if (a.input.price !== undefined && a.input.price !== null) continue;
      const item = refs.items.get(a.product.itemId)!;
      const included = configs.some((c) => c.categoryId === item.categoryId && c.priceIncluded);
      const variation = a.product.variationId === null ? null : refs.variations.get(a.product.variationId);
      const listed = subeventListedPrice(
        refs.subeventPrices,
        a.product.subeventId,
        item.id,
        a.product.variationId,
        listedPrice(item.defaultPrice, variation?.defaultPrice),
      );
      a.input = { ...a.input, price: included ? '0.00' : listed.toFixed(2) };
    }
  }
}
