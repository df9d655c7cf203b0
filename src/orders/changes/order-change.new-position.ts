import type { SaleTaxRule } from '../../catalogue/sales/sales-catalogue.service';
import { subeventListedPrice } from '../../catalogue/sales/sales-catalogue.service';
import { parseDateTime } from '../../common/values/datetime';
import { Decimal } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { generatePositionSecret, generatePseudonymizationId, ticketValidity } from '../create/order-rules';
import { lineTax, listedPrice } from '../create/pricing';
import type { OrderPosition } from '../entities/order-position.entity';
import { attendeeColumns } from '../writing/sales.rules';
import type { NewPositionDto } from './order-change.dto';
import { ChangePlan, orderError } from './order-change.model';
import { CHANGE_MESSAGES, grossLine } from './order-change.rules';

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;
const money = (d: Decimal) => d.toFixed(2);

/** The active position of the order with this `positionid`. */
export function positionByNumber(
  positions: readonly OrderPosition[],
  positionid: number,
): OrderPosition | undefined {
  return positions.find((p) => !p.canceled && p.positionid === positionid);
}

/**
 * One `create_positions` entry (pretix `add_position`): product, add-on and date rules (`OrderError`s), the
 * price (sent gross, else the listed price on its date with tax), validity, and the draft to insert; the product
 * taken and the seat to check go on the plan.
 * @throws ValidationFailed pretix's message (bare list)
 */
export function addNewPosition(
  event: Event,
  plan: ChangePlan,
  positions: readonly OrderPosition[],
  c: NewPositionDto,
  answers: ChangePlan['added'][number]['draft']['answers'],
  positionid: number,
  addonCategories: ReadonlySet<string>,
  rule: (id: number | null) => SaleTaxRule | null,
): void {
  const item = plan.catalogue.items.get(c.item)!;
  const variation = isSet(c.variation) ? plan.catalogue.variations.get(c.variation)! : null;
  const subeventId = c.subevent ?? null;
  if (!item.active) throw orderError(CHANGE_MESSAGES.productInvalid);
  if (item.hasVariations && !variation) throw orderError(CHANGE_MESSAGES.productWithoutVariation);
  if (variation && variation.itemId !== item.id) throw orderError(CHANGE_MESSAGES.productWithoutVariation);
  const parent = isSet(c.addon_to) ? positionByNumber(positions, c.addon_to) : undefined;
  if (!parent && item.isAddon) throw orderError(CHANGE_MESSAGES.addonToRequired);
  if (parent && (item.categoryId === null || !addonCategories.has(`${parent.itemId}/${item.categoryId}`)))
    throw orderError(CHANGE_MESSAGES.addonInvalid);
  if (event.hasSubevents && subeventId === null) throw orderError(CHANGE_MESSAGES.subeventRequired);
  const taxRule = rule(item.taxRuleId);
  const listed = subeventListedPrice(
    plan.catalogue.subeventPrices,
    subeventId,
    item.id,
    variation?.id ?? null,
    listedPrice(item.defaultPrice, variation?.defaultPrice),
  );
  const line = isSet(c.price) ? grossLine(new Decimal(c.price), taxRule) : lineTax(listed, taxRule, false);
  const validity =
    c.valid_from === undefined && c.valid_until === undefined
      ? ticketValidity(item, new Date(), event.timezone)
      : {
          validFrom: isSet(c.valid_from) ? parseDateTime(c.valid_from) : null,
          validUntil: isSet(c.valid_until) ? parseDateTime(c.valid_until) : null,
        };
  if (c.secret !== undefined) plan.secrets.push(c.secret);
  const product = { itemId: item.id, variationId: variation?.id ?? null, subeventId };
  plan.taken.push(product);
  if (isSet(c.seat) || parent === undefined) {
    plan.seatRequests.push({ lineId: null, addedIndex: plan.added.length, subeventId, guid: c.seat ?? '' });
  }
  plan.added.push({
    product,
    seatGuid: c.seat ?? null,
    seatId: null,
    draft: {
      answers,
      secretSent: c.secret !== undefined,
      values: {
        eventId: event.id,
        positionid,
        itemId: item.id,
        variationId: variation?.id ?? null,
        subeventId,
        price: money(line.gross),
        taxRate: money(line.rate),
        taxValue: money(line.tax),
        taxRuleId: taxRule?.id ?? null,
        taxCode: taxRule?.code ?? null,
        ...attendeeColumns(c),
        voucherId: null,
        voucherBudgetUse: null,
        addonToId: parent ? parent.positionid : null,
        isBundled: false,
        secret: c.secret ?? generatePositionSecret(),
        pseudonymizationId: generatePseudonymizationId(),
        seatId: null,
        liveSeatId: null,
        canceled: false,
        canceledWithOrder: false,
        validFrom: validity.validFrom,
        validUntil: validity.validUntil,
        discountId: null,
        blocked: null,
      },
    },
  });
  if (!line.gross.isZero()) plan.invoiceDirty = true;
}
