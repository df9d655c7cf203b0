import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import {
  SalesCatalogue,
  SalesCatalogueRows,
  SaleTaxRule,
} from '../../catalogue/sales/sales-catalogue.service';
import { FieldErrors, invalidPk, ValidationFailed } from '../../common/errors';
import { isoUtc, parseDateTime } from '../../common/values/datetime';
import { Decimal } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { loadCheckedAnswers } from '../answers/answers-check';
import type { OrderFee } from '../entities/order-fee.entity';
import type { OrderPosition } from '../entities/order-position.entity';
import type { Order } from '../entities/order.entity';
import { nameSentTwice, SALES_MESSAGES, subeventProblem } from '../writing/sales.rules';
import type { AttendeeFieldsDto, PositionChangeDto } from './order-change.dto';
import {
  ChangePlan,
  ChangeRequest,
  FeeLine,
  Line,
  mergeErrors,
  orderError,
  partErrors,
} from './order-change.model';
import {
  attendeeChanges,
  CHANGE_MESSAGES,
  duplicateProblem,
  grossLine,
  recalculatedLine,
} from './order-change.rules';
import { ATTENDEE_FIELDS } from '../create/order.dto';
import { addNewPosition, positionByNumber } from './order-change.new-position';

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;
const money = (d: Decimal) => d.toFixed(2);
const productOf = (p: Pick<OrderPosition, 'itemId' | 'variationId' | 'subeventId'>): Product => ({
  itemId: p.itemId,
  variationId: p.variationId,
  subeventId: p.subeventId,
});

/**
 * Works out a change of an order in memory (compat §4.4 "Changing order contents"; pretix `OrderChangeManager`
 * and the API's change serializers), under the order lock, before quota, seats and secrets are checked under
 * their own locks and anything is written: references first (DRF's `Invalid pk "5" - object does not exist.`
 * per entry), then duplicates, then the body's fields, then pretix's operations in its order (cancel, patch,
 * split, create, fees, taxes) with their `OrderError`s (400, bare list). Reads: the catalogue (a fixed number of
 * statements) and the answers' questions.
 */
@Injectable()
export class OrderChangePlanner {
  constructor(private readonly catalogue: SalesCatalogue) {}

  /**
   * @param positions every position of the order (canceled ones too), by `positionid`
   * @param fees every fee of the order
   * @throws ValidationFailed field errors or pretix's `OrderError` message
   */
  async plan(
    em: EntityManager,
    event: Event,
    order: Order,
    positions: OrderPosition[],
    fees: OrderFee[],
    req: ChangeRequest,
  ): Promise<ChangePlan> {
    const active = new Map(positions.filter((p) => !p.canceled).map((p) => [p.id, p]));
    const activeFees = new Map(fees.filter((f) => !f.canceled).map((f) => [f.id, f]));
    this.checkReferences(req, active, activeFees);
    const dup = duplicateProblem([
      ['patch_positions', req.patch.map((p) => p.position)],
      ['cancel_positions', req.cancel],
      ['split_positions', req.split],
      ['patch_fees', req.patchFees.map((f) => f.fee)],
      ['cancel_fees', req.cancelFees],
    ]);
    if (dup) throw new ValidationFailed(dup);

    const catalogue = await this.catalogue.load(em, event, {
      itemIds: [...req.patch.map((p) => p.body.item), ...req.create.map((c) => c.item)],
      variationIds: [...req.patch.map((p) => p.body.variation), ...req.create.map((c) => c.variation)],
      itemTaxRules: true,
      taxRuleIds: [
        ...req.patch.map((p) => p.body.tax_rule),
        ...req.createFees.map((f) => f.tax_rule),
        ...[...active.values()].map((p) => p.taxRuleId),
        ...[...activeFees.values()].map((f) => f.taxRuleId),
      ],
      subeventIds: [...req.patch.map((p) => p.body.subevent), ...req.create.map((c) => c.subevent)],
    });
    const answers = await loadCheckedAnswers(
      this.catalogue,
      em,
      event,
      req.create.map((c) => c.answers),
    );
    this.checkFields(event, req, active, catalogue, answers.errors);

    const plan: ChangePlan = {
      lines: new Map(
        [...active.values()].map((p): [number, Line] => [
          p.id,
          { before: p, after: { ...p }, dirty: false, split: false },
        ]),
      ),
      fees: new Map(
        [...activeFees.values()].map((f): [number, FeeLine] => [
          f.id,
          { before: f, after: { ...f }, dirty: false },
        ]),
      ),
      added: [],
      addedFees: [],
      taken: [],
      released: [],
      seatRequests: [],
      logs: [],
      invoiceDirty: false,
      secrets: [],
      catalogue,
    };
    const rule = (id: number | null): SaleTaxRule | null =>
      id === null ? null : (catalogue.taxRules.get(id) ?? null);

    // 1. Cancellations (an add-on goes with its base position).
    const canceled = new Set(req.cancel);
    for (const id of req.cancel) {
      for (const line of plan.lines.values()) {
        if (line.before.addonToId === id) canceled.add(line.before.id);
      }
    }
    for (const id of canceled) {
      const line = plan.lines.get(id)!;
      line.after.canceled = true;
      line.dirty = true;
      plan.released.push(productOf(line.before));
      plan.logs.push({
        action: 'pretix.event.order.changed.cancel',
        data: {
          position: id,
          positionid: line.before.positionid,
          old_item: line.before.itemId,
          old_variation: line.before.variationId,
          old_price: line.before.price,
          addon_to: line.before.addonToId,
        },
      });
      if (!new Decimal(line.before.price).isZero()) plan.invoiceDirty = true;
    }

    // 2. Patches.
    for (const { position, body } of req.patch) {
      if (canceled.has(position)) throw orderError(CHANGE_MESSAGES.canceledAndPatched);
      this.patchLine(event, plan, plan.lines.get(position)!, body, rule);
    }

    // 3. Splits (an add-on goes with its base position).
    for (const id of req.split) {
      if (canceled.has(id)) throw orderError(CHANGE_MESSAGES.canceledAndSplit);
      for (const line of plan.lines.values()) {
        if (line.before.id === id || line.before.addonToId === id) {
          line.split = true;
          line.dirty = true;
          if (!new Decimal(line.before.price).isZero()) plan.invoiceDirty = true;
        }
      }
    }

    // 4. New positions.
    const addonCategories = await this.catalogue.addonCategories(
      em,
      req.create
        .filter((c) => isSet(c.addon_to))
        .map((c) => positionByNumber(positions, c.addon_to!)!.itemId),
    );
    let nextId = Math.max(0, ...positions.map((p) => p.positionid)) + 1;
    req.create.forEach((c, i) => {
      addNewPosition(event, plan, positions, c, answers.answers[i], nextId++, addonCategories, rule);
    });

    // 5. Fees.
    for (const id of req.cancelFees) {
      const fee = plan.fees.get(id)!;
      fee.after.canceled = true;
      fee.dirty = true;
      plan.invoiceDirty = true;
      plan.logs.push({
        action: 'pretix.event.order.changed.cancelfee',
        data: { fee: id, fee_type: fee.before.feeType, old_price: fee.before.value },
      });
    }
    for (const { fee: id, body } of req.patchFees) {
      if (req.cancelFees.includes(id)) throw orderError(CHANGE_MESSAGES.feeCanceledAndPatched);
      if (body.value === undefined) continue;
      const fee = plan.fees.get(id)!;
      const line = grossLine(new Decimal(body.value), rule(fee.before.taxRuleId));
      if (line.gross.eq(fee.before.value)) continue;
      fee.after.value = money(line.gross);
      fee.after.taxValue = money(line.tax);
      fee.after.taxRate = money(line.rate);
      fee.dirty = true;
      plan.invoiceDirty = true;
      plan.logs.push({
        action: 'pretix.event.order.changed.feevalue',
        data: { fee: id, old_price: fee.before.value, new_price: fee.after.value },
      });
    }
    for (const f of req.createFees) {
      const taxRule = isSet(f.tax_rule) ? rule(f.tax_rule) : null;
      const line = grossLine(new Decimal(f.value), taxRule);
      plan.addedFees.push({
        feeType: f.fee_type,
        value: money(line.gross),
        description: f.description ?? '',
        internalType: f.internal_type ?? '',
        taxRate: money(line.rate),
        taxValue: money(line.tax),
        taxRuleId: taxRule?.id ?? null,
        taxCode: taxRule?.code ?? null,
        canceled: false,
        canceledWithOrder: false,
      });
      plan.invoiceDirty = true;
    }

    // 6. Taxes of the positions kept (pretix `recalculate_taxes`).
    if (req.recalculate) {
      for (const line of plan.lines.values()) {
        if (line.after.canceled) continue;
        const next = recalculatedLine(line.after, rule(line.after.taxRuleId), req.recalculate);
        if (!next) continue;
        plan.logs.push({
          action: 'pretix.event.order.changed.price',
          data: {
            position: line.before.id,
            positionid: line.before.positionid,
            old_price: line.after.price,
            addon_to: line.before.addonToId,
            new_price: money(next.gross),
          },
        });
        Object.assign(line.after, {
          price: money(next.gross),
          taxValue: money(next.tax),
          taxRate: money(next.rate),
        });
        line.dirty = true;
        plan.invoiceDirty = true;
      }
      plan.logs.push({ action: 'pretix.event.order.changed.recomputed', data: {} });
    }
    return plan;
  }

  /** Positions and fees named must be active ones of this order: DRF's unknown-pk message per entry. */
  private checkReferences(
    req: ChangeRequest,
    active: ReadonlyMap<number, OrderPosition>,
    activeFees: ReadonlyMap<number, OrderFee>,
  ): void {
    const pos = (id: number): FieldErrors => (active.has(id) ? {} : { position: [invalidPk(id)] });
    const fee = (id: number): FieldErrors => (activeFees.has(id) ? {} : { fee: [invalidPk(id)] });
    const errors = mergeErrors(
      partErrors(
        'patch_positions',
        req.patch.map((p) => pos(p.position)),
      ),
      partErrors('cancel_positions', req.cancel.map(pos)),
      partErrors('split_positions', req.split.map(pos)),
      partErrors(
        'patch_fees',
        req.patchFees.map((f) => fee(f.fee)),
      ),
      partErrors('cancel_fees', req.cancelFees.map(fee)),
    );
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  }

  /** The body fields: references of the event, the sub-event rule, the variation rule, attendee names. */
  private checkFields(
    event: Event,
    req: ChangeRequest,
    active: ReadonlyMap<number, OrderPosition>,
    catalogue: SalesCatalogueRows,
    answerErrors: (FieldErrors[] | null)[],
  ): void {
    const item = (id: number) => {
      const it = catalogue.items.get(id);
      return it && it.eventId === event.id ? it : undefined;
    };
    const variation = (id: number) => {
      const v = catalogue.variations.get(id);
      return v && v.eventId === event.id ? v : undefined;
    };
    const attendee = (b: AttendeeFieldsDto, e: FieldErrors) => {
      if (nameSentTwice(b.attendee_name, b.attendee_name_parts))
        e.attendee_name = [CHANGE_MESSAGES.nameTwice];
    };
    const patchErrs = req.patch.map(({ position, body }): FieldErrors => {
      const e: FieldErrors = {};
      if (body.item !== undefined && !item(body.item)) e.item = [invalidPk(body.item)];
      if (isSet(body.variation) && !variation(body.variation)) e.variation = [invalidPk(body.variation)];
      if (body.subevent !== undefined) {
        const problem = subeventProblem(event, body.subevent, catalogue.subevents);
        if (problem) e.subevent = [problem];
      }
      if (body.tax_rule !== undefined && !catalogue.taxRules.has(body.tax_rule))
        e.tax_rule = [invalidPk(body.tax_rule)];
      attendee(body, e);
      if (Object.keys(e).length > 0) return { body: e };
      const pos = active.get(position)!;
      const it = body.item !== undefined ? item(body.item)! : undefined;
      const hasVariations = it ? it.hasVariations : pos.variationId !== null;
      const itemId = body.item ?? pos.itemId;
      const varId =
        body.variation !== undefined ? body.variation : body.item !== undefined ? null : pos.variationId;
      if (hasVariations && varId === null) return { variation: [SALES_MESSAGES.variationRequired] };
      if (varId !== null && !hasVariations) return { variation: [SALES_MESSAGES.variationNotAllowed] };
      if (varId !== null && body.variation !== undefined && variation(varId)!.itemId !== itemId)
        return { variation: [SALES_MESSAGES.variationOtherItem] };
      return {};
    });
    const createErrs = req.create.map((c, i): FieldErrors => {
      const e: FieldErrors = {};
      if (!item(c.item)) e.item = [invalidPk(c.item)];
      if (isSet(c.variation) && !variation(c.variation)) e.variation = [invalidPk(c.variation)];
      if (isSet(c.subevent)) {
        const problem = subeventProblem(event, c.subevent, catalogue.subevents);
        if (problem && problem !== SALES_MESSAGES.subeventRequired) e.subevent = [problem];
      }
      if (answerErrors[i]) e.answers = answerErrors[i];
      attendee(c, e);
      if (Object.keys(e).length === 0 && isSet(c.addon_to)) {
        const parent = [...active.values()].find((p) => p.positionid === c.addon_to);
        if (!parent) e.addon_to = [CHANGE_MESSAGES.addonToUnknown];
      }
      return e;
    });
    const feeErrs = req.createFees.map((f): FieldErrors =>
      isSet(f.tax_rule) && !catalogue.taxRules.has(f.tax_rule) ? { tax_rule: [invalidPk(f.tax_rule)] } : {},
    );
    const creates =
      req.createErrorsAtRoot && createErrs.length === 1
        ? Object.keys(createErrs[0]).length > 0
          ? createErrs[0]
          : null
        : partErrors('create_positions', createErrs);
    const errors = mergeErrors(
      partErrors('patch_positions', patchErrs),
      creates,
      partErrors('create_fees', feeErrs),
    );
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  }

  /** One `patch_positions` entry: item, sub-event, seat, price, tax rule, validity, secret, attendee fields. */
  private patchLine(
    event: Event,
    plan: ChangePlan,
    line: Line,
    body: PositionChangeDto,
    rule: (id: number | null) => SaleTaxRule | null,
  ): void {
    const { before, after } = line;
    const log = (action: string, data: Record<string, unknown>) =>
      plan.logs.push({ action, data: { position: before.id, positionid: before.positionid, ...data } });
    const itemId = body.item ?? before.itemId;
    const variationId =
      body.variation !== undefined ? body.variation : body.item !== undefined ? null : before.variationId;
    const itemChanged = itemId !== before.itemId || variationId !== before.variationId;
    const subeventChanged =
      event.hasSubevents && body.subevent !== undefined && body.subevent !== before.subeventId;
    if (itemChanged || subeventChanged) {
      plan.released.push(productOf(before));
      plan.taken.push({
        itemId,
        variationId,
        subeventId: subeventChanged ? body.subevent! : before.subeventId,
      });
    }
    if (itemChanged) {
      const item = plan.catalogue.items.get(itemId)!;
      log('pretix.event.order.changed.item', {
        old_item: before.itemId,
        old_variation: before.variationId,
        new_item: itemId,
        new_variation: variationId,
        old_price: before.price,
        addon_to: before.addonToId,
        new_price: before.price,
      });
      after.itemId = itemId;
      after.variationId = variationId;
      after.taxRuleId = item.taxRuleId;
      after.taxCode = rule(item.taxRuleId)?.code ?? null;
      const tax = grossLine(new Decimal(after.price), rule(after.taxRuleId));
      after.taxValue = money(tax.tax);
      after.taxRate = money(tax.rate);
      line.dirty = true;
    }
    if (subeventChanged) {
      log('pretix.event.order.changed.subevent', {
        old_subevent: before.subeventId,
        new_subevent: body.subevent,
        old_price: before.price,
        new_price: before.price,
      });
      after.subeventId = body.subevent!;
      line.dirty = true;
      plan.invoiceDirty = true;
    }
    // A seat sent, or the same seat (by guid) on the new date (pretix `change_seat`).
    if (body.seat !== undefined || (subeventChanged && before.seatId !== null)) {
      const guid = body.seat !== undefined ? body.seat : null;
      plan.seatRequests.push({
        lineId: before.id,
        addedIndex: null,
        subeventId: after.subeventId,
        guid: guid ?? (body.seat === null ? '' : `#keep:${before.seatId}`),
      });
      line.dirty = true;
    }
    if (body.price !== undefined && !new Decimal(body.price).eq(after.price)) {
      const ruleId = body.tax_rule ?? after.taxRuleId;
      const tax = grossLine(new Decimal(body.price), rule(ruleId));
      log('pretix.event.order.changed.price', {
        old_price: before.price,
        addon_to: before.addonToId,
        new_price: money(tax.gross),
      });
      Object.assign(after, { price: money(tax.gross), taxValue: money(tax.tax), taxRate: money(tax.rate) });
      line.dirty = true;
      if (!tax.gross.isZero() || !new Decimal(before.price).isZero()) plan.invoiceDirty = true;
    }
    if (body.tax_rule !== undefined && body.tax_rule !== after.taxRuleId) {
      log('pretix.event.order.changed.tax_rule', {
        addon_to: before.addonToId,
        old_taxrule: before.taxRuleId,
        new_taxrule: body.tax_rule,
      });
      const tax = grossLine(new Decimal(after.price), rule(body.tax_rule));
      Object.assign(after, {
        taxRuleId: body.tax_rule,
        taxCode: rule(body.tax_rule)?.code ?? null,
        taxValue: money(tax.tax),
        taxRate: money(tax.rate),
      });
      line.dirty = true;
      plan.invoiceDirty = true;
    }
    for (const key of ['valid_from', 'valid_until'] as const) {
      const sent = body[key];
      if (sent === undefined) continue;
      const prop = key === 'valid_from' ? 'validFrom' : 'validUntil';
      const value = sent === null ? null : parseDateTime(sent);
      if ((value?.getTime() ?? null) === (before[prop]?.getTime() ?? null)) continue;
      log(`pretix.event.order.changed.${key}`, { new_value: isoUtc(value), old_value: isoUtc(before[prop]) });
      after[prop] = value;
      line.dirty = true;
    }
    if (body.secret !== undefined && body.secret !== before.secret) {
      plan.secrets.push(body.secret);
      after.secret = body.secret;
      log('pretix.event.order.changed.secret', {});
      line.dirty = true;
    }
    const attendee = attendeeChanges(before, body);
    if (Object.keys(attendee).length > 0) {
      Object.assign(after, attendee);
      line.dirty = true;
      const sent = Object.fromEntries(
        ATTENDEE_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]),
      );
      plan.logs.push({
        action: 'pretix.event.order.modified',
        data: { data: [{ position: before.id, ...sent }] },
      });
    }
  }
}
