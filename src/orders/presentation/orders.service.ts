import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager, InjectRepository } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { Refused, ValidationFailed } from '../../common/errors';
import { applyOrdering } from '../../common/listing/ordering';
import { findManyInOne, findOneInOne, paginateInOne } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { sentKeys } from '../../common/persistence/write';
import type { Event } from '../../organizers/event.entity';
import type { Organizer } from '../../organizers/organizer.entity';
import { invoiceAddressValues, invoiceNameSentTwice } from '../create/invoice-address.rules';
import { INVOICE_NAME_TWICE } from '../create/order-create.messages';
import type { UpdateOrderDto } from '../create/order.dto';
import { logOrder } from '../writing/order-log';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import { OrderWriter } from '../writing/order-writer';
import { Order } from '../entities/order.entity';
import { OrderJson, toOrderJson } from './order.presenter';
import { OrderListQueries, OrderListWhere } from './order-list.queries';
import { maskOrder, orderFieldMask } from './order-field-mask';
import { orderExactWhere } from './order-exact-filters';
import {
  pdfDataOf,
  PositionPrintFacts,
  printEventOf,
  PrintEvent,
  PrintQuestion,
  wantsPdfData,
  withPdfData,
} from './pdf-data.rules';

export const ONLY_TESTMODE_DELETE = 'Only test mode orders can be deleted.';

/** Ordering fields of order lists (compat §4.4): wire name → SQL. */
const ORDERING = {
  datetime: 'o.datetime',
  code: 'o.code',
  status: 'o.status',
  last_modified: 'o.last_modified',
  cancellation_date: 'o.cancellation_date',
};

/** Order fields PATCH may change besides the invoice address (compat §4.4). */
type PatchField = Exclude<keyof UpdateOrderDto, 'invoice_address'>;

/**
 * Orders: the event's list and detail, PATCH of the allowed fields, DELETE of test-mode orders, and the
 * organizer-wide list (compat §4.4). Creation lives in {@link OrderCreator}. Lists cost a fixed number of SQL
 * statements whatever the page size (rows, count, and the bulk presentation of {@link OrderPresentation}).
 */
@Injectable()
@RendersChanges('order')
export class OrdersService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    private readonly audit: AuditLogService,
    private readonly writer: OrderWriter,
    private readonly redemptions: VoucherRedemptions,
    private readonly presentation: OrderPresentation,
    private readonly queries: OrderListQueries,
  ) {}

  /**
   * One page of the event's orders. Filters: `status`, `code` (case-insensitive), `email` (case-insensitive
   * exact), `locale`, `testmode`, `require_approval` (booleans), `modified_since` (`last_modified` ≥, ISO
   * datetime), `created_since` (`datetime` ≥); the exact filters of issue 27 §6 (`order-exact-filters.ts`:
   * `attendee_email`, `attendee_name`, `secret`, `customer`, `item__in`, `status__in`, `datetime_since`,
   * `datetime_until`, each on an index); `include_canceled_positions=true` / `include_canceled_fees=true`
   * show canceled positions and fees. Ordering `datetime` (default), `code`, `status`, `last_modified`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<SyncPage<OrderJson>> {
    const where = orderWhere(filters, event.organizerId);
    const generated = await this.queries.syncHorizon(this.orders.manager);
    const qb = this.queries.ordersOfEvent(this.orders.manager, event.id, where);
    applyOrdering(qb, filters, ORDERING, ['datetime']);
    if (wantsPdfData(filters.raw('pdf_data'))) {
      const facts = new Map<number, PositionPrintFacts>();
      const print = printEventOf(event);
      const now = new Date();
      const result = await paginateInOne(
        qb,
        page,
        this.presentation.orderRelatedWithPrintFacts(event.id, facts),
        (o, r) => withPositionPdfData(toOrderJson(o, r), facts, print, r.questions, now),
      );
      return { page: this.shaped(result, filters), generated };
    }
    return { page: await this.page(qb, page, filters), generated };
  }

  /**
   * `O/orders/`: orders of all events of the organizer on which the credential holds `event.orders:read`
   * (docs/permissions.md), with the filters and ordering of {@link list}. No such event: an empty list.
   */
  async listForOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<SyncPage<OrderJson>> {
    const allowed = principal.eventsWithPermission(organizer.id, 'event.orders:read');
    const where = orderWhere(filters, organizer.id);
    const generated = await this.queries.syncHorizon(this.orders.manager);
    const qb = this.queries.ordersOfOrganizer(this.orders.manager, organizer.id, allowed, where);
    applyOrdering(qb, filters, ORDERING, ['datetime']);
    return { page: await this.page(qb, page, filters), generated };
  }

  /** A page of orders with everything they show, in one statement (README "API conventions"). */
  private async page(
    qb: SelectQueryBuilder<Order>,
    page: PageRequest,
    filters: QueryFilters,
  ): Promise<Paginated<OrderJson>> {
    const result = await paginateInOne(qb, page, this.presentation.orderRelated(), toOrderJson);
    return this.shaped(result, filters);
  }

  /** Canceled positions and fees hidden (unless asked for), then `include` / `exclude` applied. */
  private shaped(result: Paginated<OrderJson>, filters: QueryFilters): Paginated<OrderJson> {
    const mask = orderFieldMask(filters);
    return result.withItems(visible(result.items, filters).map((o) => maskOrder(o, mask) as OrderJson));
  }

  /** The change feed's order objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /**
   * The detail answers of the orders `refs` names that still exist in their event (as the detail GET without
   * parameters answers them: canceled positions and fees left out), by id; one statement.
   */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, OrderJson>> {
    if (refs.length === 0) return new Map();
    const qb = this.queries.ordersWithIds(this.em, refIds(refs));
    const none = new QueryFilters({});
    const rows = await findManyInOne(qb, this.presentation.orderRelated(), (o, r) => ({
      id: o.id,
      eventId: o.eventId,
      json: visible([toOrderJson(o, r)], none)[0],
    }));
    return byRef(refs, rows);
  }

  /**
   * One order by code (exact) within the event.
   * @throws NotFound for an unknown code or one of another event
   */
  async get(event: Event, code: string, filters: QueryFilters): Promise<OrderJson> {
    const qb = this.queries.orderByCode(this.orders.manager, event.id, code);
    let json: OrderJson;
    if (wantsPdfData(filters.raw('pdf_data'))) {
      const facts = new Map<number, PositionPrintFacts>();
      const print = printEventOf(event);
      const now = new Date();
      json = await findOneInOne(qb, this.presentation.orderRelatedWithPrintFacts(event.id, facts), (o, r) =>
        withPositionPdfData(toOrderJson(o, r), facts, print, r.questions, now),
      );
    } else {
      json = await findOneInOne(qb, this.presentation.orderRelated(), toOrderJson);
    }
    return maskOrder(visible([json], filters)[0], orderFieldMask(filters)) as OrderJson;
  }

  /**
   * PATCH (compat §4.4): changes only `email`, `phone`, `locale`, `comment`, `checkin_attention`, `checkin_text`,
   * `custom_followup_at`, `valid_if_pending`, `api_meta`, `plugin_data` and `invoice_address` (replaced; created when missing;
   * null removes it); other fields are ignored. `last_modified` moves. Logs `pretix.event.order.contact.changed`
   * (e-mail or phone changed), `pretix.event.order.comment` (comment changed) and `pretix.event.order.modified`
   * (any other field changed, or an invoice address sent).
   * @throws NotFound for an unknown code
   * @throws ValidationFailed for invalid data
   */
  async update(event: Event, code: string, principal: Principal, body: UpdateOrderDto): Promise<OrderJson> {
    const address = body.invoice_address;
    if (invoiceNameSentTwice(address)) {
      throw new ValidationFailed({ invoice_address: { name: [INVOICE_NAME_TWICE] } });
    }
    const updated = await this.em.transaction(async (em) => {
      const order = await this.load(em, event, code, true);
      const now = new Date();
      const sent = new Set(sentKeys(body));
      const before: Record<PatchField, unknown> = {
        email: order.email,
        phone: order.phone,
        locale: order.locale,
        comment: order.comment,
        checkin_attention: order.checkinAttention,
        checkin_text: order.checkinText,
        custom_followup_at: order.customFollowupAt,
        valid_if_pending: order.validIfPending,
        api_meta: order.apiMeta,
        plugin_data: order.pluginData,
      };
      const changed = (Object.keys(before) as PatchField[]).filter(
        (k) => sent.has(k) && !isDeepStrictEqual(before[k], body[k]),
      );
      const has = (k: PatchField) => changed.includes(k);
      await this.writer.updateDetails(
        em,
        order,
        {
          email: has('email') ? (body.email ?? null) : order.email,
          phone: has('phone') ? (body.phone ?? null) : order.phone,
          locale: has('locale') ? body.locale! : order.locale,
          comment: has('comment') ? body.comment! : order.comment,
          checkinAttention: has('checkin_attention') ? body.checkin_attention! : order.checkinAttention,
          checkinText: has('checkin_text') ? (body.checkin_text ?? null) : order.checkinText,
          customFollowupAt: has('custom_followup_at')
            ? (body.custom_followup_at ?? null)
            : order.customFollowupAt,
          validIfPending: has('valid_if_pending') ? body.valid_if_pending! : order.validIfPending,
          apiMeta: has('api_meta') ? body.api_meta! : order.apiMeta,
          pluginData: has('plugin_data') ? body.plugin_data! : order.pluginData,
        },
        now,
      );
      if (sent.has('invoice_address')) {
        await this.writer.replaceAddress(em, order.id, address ? invoiceAddressValues(address, now) : null);
      }

      const log = (action: string, data: Record<string, unknown>) =>
        logOrder(this.audit, em, { event, principal }, order.id, action, data);
      if (has('email') || has('phone')) {
        await log('pretix.event.order.contact.changed', {
          old_email: before.email,
          new_email: order.email,
          old_phone: before.phone,
          new_phone: order.phone,
        });
      }
      if (has('comment')) await log('pretix.event.order.comment', { new_comment: order.comment });
      const other = changed.filter((k) => !['email', 'phone', 'comment'].includes(k));
      if (other.length > 0 || sent.has('invoice_address')) {
        const data: Record<string, unknown> = Object.fromEntries(other.map((k) => [k, body[k]]));
        if (sent.has('invoice_address')) data.invoice_data = address ?? null;
        await log('pretix.event.order.modified', data);
      }
      return order;
    });
    // Presented after the commit, on the pool: the order row is locked no longer than the change needs.
    const [json] = await this.presentation.orders(this.em, [updated], new Map([[event.id, event.slug]]));
    return json;
  }

  /**
   * DELETE (compat §4.4): only test-mode orders; the order goes with its positions, answers, fees, payments and
   * address; voucher redemptions (and budget) of a non-canceled order are given back. Logs
   * `pretix.event.order.deleted` with the code.
   * @throws NotFound for an unknown code
   * @throws Refused (403) when the order is not in test mode
   */
  async delete(event: Event, code: string, principal: Principal): Promise<void> {
    await this.em.transaction(async (em) => {
      const order = await this.load(em, event, code, true);
      if (!order.testmode) throw new Refused(ONLY_TESTMODE_DELETE);
      if (order.status !== 'c') {
        const positions = await em.find(OrderPosition, { where: { orderId: order.id, canceled: false } });
        await this.redemptions.release(em, voucherUses(positions));
      }
      await logOrder(this.audit, em, { event, principal }, order.id, 'pretix.event.order.deleted', {
        code: order.code,
      });
      await this.writer.delete(em, order);
    });
  }

  /** @throws NotFound */
  private async load(em: EntityManager, event: Event, code: string, lock: boolean): Promise<Order> {
    return findOrNotFound(em, Order, { eventId: event.id, code }, lock);
  }
}

/**
 * The list filters of compat §4.4, then the exact filters of issue 27 §6 (customers of `organizerId`), parsed in
 * this order (the first malformed one answers 400).
 */
function orderWhere(filters: QueryFilters, organizerId: number): OrderListWhere {
  return {
    status: filters.str('status')?.toLowerCase(),
    code: filters.str('code'),
    email: filters.str('email'),
    locale: filters.str('locale'),
    testmode: filters.bool('testmode'),
    require_approval: filters.bool('require_approval'),
    modifiedSince: filters.datetime('modified_since'),
    createdSince: filters.datetime('created_since'),
    createdBefore: filters.datetime('created_before'),
    subeventAfter: filters.datetime('subevent_after'),
    subeventBefore: filters.datetime('subevent_before'),
    ...orderExactWhere(filters, organizerId),
  };
}

/** A list page with the time to pass back as `modified_since` next time (header `X-Page-Generated`). */
export interface SyncPage<T> {
  page: Paginated<T>;
  generated: Date;
}

/** The order with `pdf_data` on each position whose print facts were read (pretix `PdfDataSerializer`). */
function withPositionPdfData(
  order: OrderJson,
  facts: ReadonlyMap<number, PositionPrintFacts>,
  event: PrintEvent,
  questions: readonly PrintQuestion[],
  now: Date,
): OrderJson {
  return {
    ...order,
    positions: order.positions.map((p) => {
      const f = facts.get(p.id);
      return f ? withPdfData(p, pdfDataOf(p, f, event, questions, now)) : p;
    }),
  };
}

/** Hides canceled positions and fees unless `include_canceled_positions` / `include_canceled_fees` is `true`. */
function visible(orders: OrderJson[], filters: QueryFilters): OrderJson[] {
  const positions = filters.raw('include_canceled_positions') === 'true';
  const fees = filters.raw('include_canceled_fees') === 'true';
  return orders.map((o) => ({
    ...o,
    positions: positions ? o.positions : o.positions.filter((p) => !p.canceled),
    fees: fees ? o.fees : o.fees.filter((f) => !f.canceled),
  }));
}
