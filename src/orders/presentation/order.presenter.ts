import { ApiPropertyOptional } from '@nestjs/swagger';
import { isoUtc } from '../../common/values/datetime';
import { moneyOrNull, toMoney } from '../../common/values/money';
import type { InvoiceAddress } from '../entities/invoice-address.entity';
import type { OrderFee } from '../entities/order-fee.entity';
import type { OrderPayment } from '../entities/order-payment.entity';
import type { OrderRefund } from '../entities/order-refund.entity';
import { openPaymentProvider } from '../payments/order-payments.rules';
import type { OrderPosition } from '../entities/order-position.entity';
import type { Order } from '../entities/order.entity';
import {
  ApiDate,
  ApiDateTime,
  ApiEnum,
  ApiInt,
  ApiIntList,
  ApiMoney,
  ApiPercent,
} from '../../common/http/api-schemas';
import { FEE_TYPES, TAX_ROUNDING_MODES } from '../create/order-rules';
import {
  CHECKIN_TYPES,
  DownloadJson,
  ORDER_STATUSES,
  OrderRefundJson,
  PAYMENT_STATES,
  PositionSeatJson,
  PrintLogJson,
  toOrderRefundJson,
} from './order-parts.presenter';
import { absoluteUrl } from '../../common/http/request-origin';
import {
  downloadsList,
  orderDownloadPath,
  orderDownloadRefusal,
  positionDownloadPath,
  positionDownloadRefusal,
  TicketOrderFacts,
} from './ticket-download.rules';
import { presentAnswers } from './answer-files.presenter';

/** An answer of a position (compat §4.4; spec "Cart position" `answers`). */
export class AnswerJson {
  @ApiInt()
  question!: number;
  answer!: string;
  question_identifier!: string;
  @ApiIntList()
  options!: number[];
  option_identifiers!: string[];
}

/** A scan of a ticket, as listed on its position. */
export class CheckinJson {
  @ApiInt()
  id!: number;
  @ApiInt({ nullable: true })
  list!: number | null;
  @ApiEnum(CHECKIN_TYPES)
  type!: string;
  @ApiDateTime()
  datetime!: string;
  @ApiInt({ nullable: true })
  gate!: number | null;
  @ApiInt({ nullable: true })
  device!: number | null;
  /** pretix's `device_id` (the device's number in its organizer) of the scanning device; null for other credentials. */
  @ApiInt({ nullable: true })
  device_id!: number | null;
  auto_checked_in!: boolean;
}

/** An order position (compat §4.4 "Position fields"). Money as strings with two decimals. */
export class OrderPositionJson {
  @ApiInt()
  id!: number;
  /** Code of the order. */
  order!: string;
  @ApiInt()
  positionid!: number;
  @ApiInt()
  item!: number;
  @ApiInt({ nullable: true })
  variation!: number | null;
  @ApiMoney()
  price!: string;
  attendee_name!: string | null;
  attendee_name_parts!: Record<string, string>;
  company!: string | null;
  street!: string | null;
  zipcode!: string | null;
  city!: string | null;
  country!: string | null;
  state!: string | null;
  attendee_email!: string | null;
  @ApiInt({ nullable: true })
  voucher!: number | null;
  @ApiMoney({ nullable: true })
  voucher_budget_use!: string | null;
  @ApiInt({ nullable: true })
  discount!: number | null;
  @ApiPercent()
  tax_rate!: string;
  @ApiMoney()
  tax_value!: string;
  /** Codified reason for the tax rate (pretix 2025.1), or null. */
  tax_code!: string | null;
  @ApiInt({ nullable: true })
  tax_rule!: number | null;
  secret!: string;
  @ApiInt({ nullable: true })
  addon_to!: number | null;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  checkins!: CheckinJson[];
  print_logs!: PrintLogJson[];
  downloads!: DownloadJson[];
  answers!: AnswerJson[];
  seat!: PositionSeatJson | null;
  canceled!: boolean;
  @ApiDateTime({ nullable: true })
  valid_from!: string | null;
  @ApiDateTime({ nullable: true })
  valid_until!: string | null;
  blocked!: string[] | null;
  is_bundled!: boolean;
  pseudonymization_id!: string;
  /**
   * Only with `pdf_data=true` on the event's order and position reads: the text variables of pretix's ticket
   * layouts for this position (name -> text) and `images` (key -> URL of `pdf_image/{key}/`, or null).
   */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  pdf_data?: Record<string, unknown>;
  /** Additional data of plugins (pretix 2025.2); always `{}` here. */
  plugin_data!: Record<string, unknown>;
}

/** A position of `O/orderpositions/`: the position with its event's slug. */
export class OrganizerOrderPositionJson extends OrderPositionJson {
  /** Slug of the event. */
  event!: string;
}

/** A fee of an order. */
export class OrderFeeJson {
  @ApiInt()
  id!: number;
  @ApiEnum(FEE_TYPES)
  fee_type!: string;
  @ApiMoney()
  value!: string;
  description!: string;
  internal_type!: string;
  @ApiPercent()
  tax_rate!: string;
  @ApiMoney()
  tax_value!: string;
  @ApiInt({ nullable: true })
  tax_rule!: number | null;
  /** Codified reason for the tax rate (pretix 2025.1), or null. */
  tax_code!: string | null;
  canceled!: boolean;
}

/** A payment of an order, addressed by `local_id`. */
export class OrderPaymentJson {
  @ApiInt()
  local_id!: number;
  @ApiEnum(PAYMENT_STATES)
  state!: string;
  @ApiMoney()
  amount!: string;
  @ApiDateTime()
  created!: string;
  @ApiDateTime({ nullable: true })
  payment_date!: string | null;
  provider!: string;
  payment_url!: string | null;
  details!: Record<string, unknown>;
}

/** The invoice address of an order. */
export class InvoiceAddressJson {
  @ApiDateTime()
  last_modified!: string;
  is_business!: boolean;
  company!: string;
  name!: string;
  name_parts!: Record<string, string>;
  street!: string;
  zipcode!: string;
  city!: string;
  country!: string;
  state!: string;
  vat_id!: string;
  vat_id_validated!: boolean;
  custom_field!: string | null;
  internal_reference!: string;
  /** `email` (pretix 2025.6). */
  transmission_type!: string;
  /** Type-specific details, e.g. `{"transmission_email_address": "…"}`; `{}` by default. */
  transmission_info!: Record<string, unknown>;
}

/** An order (compat §4.4 "Order fields"). */
export class OrderJson {
  code!: string;
  /** Slug of the event. */
  event!: string;
  /** `n` pending, `p` paid, `e` expired, `c` canceled. */
  @ApiEnum(ORDER_STATUSES)
  status!: string;
  testmode!: boolean;
  secret!: string;
  email!: string | null;
  phone!: string | null;
  locale!: string;
  sales_channel!: string;
  @ApiDateTime()
  datetime!: string;
  @ApiDateTime()
  expires!: string;
  /** Deprecated: date of the last confirmed payment. */
  @ApiDate({ nullable: true })
  payment_date!: string | null;
  /** Deprecated: provider of the last confirmed payment, else of the last open one. */
  payment_provider!: string | null;
  fees!: OrderFeeJson[];
  @ApiMoney()
  total!: string;
  /** `line`, `sum_by_net` or `sum_by_net_keep_gross` (pretix 2025.10). */
  @ApiEnum(TAX_ROUNDING_MODES)
  tax_rounding_mode!: string;
  comment!: string;
  @ApiDate({ nullable: true })
  custom_followup_at!: string | null;
  invoice_address!: InvoiceAddressJson | null;
  positions!: OrderPositionJson[];
  downloads!: DownloadJson[];
  checkin_attention!: boolean;
  checkin_text!: string | null;
  @ApiDateTime()
  last_modified!: string;
  payments!: OrderPaymentJson[];
  refunds!: OrderRefundJson[];
  require_approval!: boolean;
  valid_if_pending!: boolean;
  url!: string | null;
  customer!: string | null;
  @ApiDateTime({ nullable: true })
  cancellation_date!: string | null;
  api_meta!: Record<string, unknown>;
  /** Additional data of plugins (pretix 2025.2); `{}` unless written through the API. */
  plugin_data!: Record<string, unknown>;
}

const NAME_ORDER = ['title', 'salutation', 'given_name', 'middle_name', 'family_name', 'calling_name'];

/**
 * The single-string attendee name of name parts: the legacy value, or the parts joined in the usual order
 * (`_scheme` is metadata, not a part); null when empty.
 */
export function nameFromParts(parts: Record<string, string> | null | undefined): string | null {
  if (!parts) return null;
  if (parts._legacy) return parts._legacy;
  const keys = Object.keys(parts).filter((k) => k !== '_scheme' && parts[k]);
  keys.sort((a, b) => {
    const ia = NAME_ORDER.indexOf(a);
    const ib = NAME_ORDER.indexOf(b);
    return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  });
  const name = keys
    .map((k) => parts[k])
    .join(' ')
    .trim();
  return name === '' ? null : name;
}

/** Related rows a position's presentation needs. */
export interface PositionExtras {
  orderCode: string;
  answers: AnswerJson[];
  checkins: CheckinJson[];
  /** The position's print logs (pretix `print_logs`, by id); none when not given. */
  printLogs?: PrintLogJson[];
  /** The seat object when the presenter loaded it with the row; else the id only (completed by `fillSeats`). */
  seat?: PositionSeatJson | null;
  /** What `downloads` is decided from ({@link readTicketFacts}); without it `downloads` is empty. */
  ticket?: PositionTicketFacts | null;
}

/** The order, slugs and product flags a position's `downloads` needs (`OrderListQueries.ticketFacts`). */
export interface PositionTicketFacts {
  order: TicketOrderFacts;
  organizer: string;
  event: string;
  itemAdmission: boolean;
  itemGenerateTickets: boolean | null;
}

/** Reads the JSON of `OrderListQueries.ticketFacts` (null when the order is gone). */
export function readTicketFacts(value: unknown): PositionTicketFacts | null {
  const v = value as {
    s: string;
    ra: boolean;
    vp: boolean;
    org: string;
    ev: string;
    item: [boolean, boolean | null] | null;
  } | null;
  if (!v) return null;
  return {
    order: { status: v.s, requireApproval: v.ra, validIfPending: v.vp },
    organizer: v.org,
    event: v.ev,
    itemAdmission: v.item?.[0] ?? false,
    itemGenerateTickets: v.item?.[1] ?? null,
  };
}

/** A position's `downloads` (rule: `ticket-download.rules.ts`); empty without its ticket facts. */
function positionDownloads(p: OrderPosition, facts: PositionTicketFacts | null | undefined): DownloadJson[] {
  if (!facts) return [];
  const allowed =
    positionDownloadRefusal(facts.order, {
      addonTo: p.addonToId,
      canceled: p.canceled,
      itemAdmission: facts.itemAdmission,
      itemGenerateTickets: facts.itemGenerateTickets,
    }) === null;
  return downloadsList(
    allowed,
    (out) => positionDownloadPath(facts.organizer, facts.event, p.id, out),
    absoluteUrl,
  );
}

export function toOrderPositionJson(p: OrderPosition, extras: PositionExtras): OrderPositionJson {
  return {
    id: p.id,
    order: extras.orderCode,
    positionid: p.positionid,
    item: p.itemId,
    variation: p.variationId,
    price: toMoney(p.price),
    attendee_name: nameFromParts(p.attendeeNameParts),
    attendee_name_parts: p.attendeeNameParts,
    company: p.company,
    street: p.street,
    zipcode: p.zipcode,
    city: p.city,
    country: p.country,
    state: p.state,
    attendee_email: p.attendeeEmail,
    voucher: p.voucherId,
    voucher_budget_use: moneyOrNull(p.voucherBudgetUse),
    discount: p.discountId,
    tax_rate: toMoney(p.taxRate),
    tax_value: toMoney(p.taxValue),
    tax_code: p.taxCode,
    tax_rule: p.taxRuleId,
    secret: p.secret,
    addon_to: p.addonToId,
    subevent: p.subeventId,
    checkins: extras.checkins,
    print_logs: extras.printLogs ?? [],
    downloads: positionDownloads(p, extras.ticket),
    answers: presentAnswers(extras.answers, p.id, extras.ticket),
    seat: extras.seat !== undefined ? extras.seat : seatStub(p.seatId),
    canceled: p.canceled,
    valid_from: isoUtc(p.validFrom),
    valid_until: isoUtc(p.validUntil),
    blocked: p.blocked && p.blocked.length > 0 ? p.blocked : null,
    is_bundled: p.isBundled,
    pseudonymization_id: p.pseudonymizationId,
    plugin_data: {},
  };
}

export function toOrderFeeJson(f: OrderFee): OrderFeeJson {
  return {
    id: f.id,
    fee_type: f.feeType,
    value: toMoney(f.value),
    description: f.description,
    internal_type: f.internalType,
    tax_rate: toMoney(f.taxRate),
    tax_value: toMoney(f.taxValue),
    tax_rule: f.taxRuleId,
    tax_code: f.taxCode,
    canceled: f.canceled,
  };
}

export function toOrderPaymentJson(p: OrderPayment): OrderPaymentJson {
  return {
    local_id: p.localId,
    state: p.state,
    amount: toMoney(p.amount),
    created: isoUtc(p.created),
    payment_date: isoUtc(p.paymentDate),
    provider: p.provider,
    payment_url: null,
    details: {},
  };
}

export function toInvoiceAddressJson(a: InvoiceAddress): InvoiceAddressJson {
  return {
    last_modified: isoUtc(a.lastModified),
    is_business: a.isBusiness,
    company: a.company,
    name: nameFromParts(a.nameParts) ?? '',
    name_parts: a.nameParts,
    street: a.street,
    zipcode: a.zipcode,
    city: a.city,
    country: a.country,
    state: a.state,
    vat_id: a.vatId,
    vat_id_validated: a.vatIdValidated,
    custom_field: a.customField,
    internal_reference: a.internalReference,
    transmission_type: a.transmissionType,
    transmission_info: a.transmissionInfo,
  };
}

/** Related rows an order's presentation needs. */
export interface OrderExtras {
  eventSlug: string;
  positions: OrderPositionJson[];
  fees: OrderFee[];
  payments: OrderPayment[];
  /** The order's refunds (pretix `refunds`); their `payment` is shown as the payment's `local_id`. */
  refunds: OrderRefund[];
  invoiceAddress: InvoiceAddress | null;
  /** The organizer's slug, for the `downloads` URL; without it `downloads` is empty. */
  organizerSlug?: string | null;
}

export function toOrderJson(o: Order, extras: OrderExtras): OrderJson {
  const confirmed = extras.payments.filter((p) => p.state === 'confirmed' && p.paymentDate);
  const last = confirmed.sort((a, b) => b.paymentDate!.getTime() - a.paymentDate!.getTime())[0];
  return {
    code: o.code,
    event: extras.eventSlug,
    status: o.status,
    testmode: o.testmode,
    secret: o.secret,
    email: o.email,
    phone: o.phone,
    locale: o.locale,
    sales_channel: o.salesChannel,
    datetime: isoUtc(o.datetime),
    expires: isoUtc(o.expires),
    payment_date: last ? isoUtc(last.paymentDate!).slice(0, 10) : null,
    payment_provider: last ? last.provider : openPaymentProvider(extras.payments),
    fees: extras.fees.map(toOrderFeeJson),
    total: toMoney(o.total),
    tax_rounding_mode: o.taxRoundingMode,
    comment: o.comment,
    custom_followup_at: o.customFollowupAt,
    invoice_address: extras.invoiceAddress ? toInvoiceAddressJson(extras.invoiceAddress) : null,
    positions: extras.positions,
    downloads: extras.organizerSlug
      ? downloadsList(
          orderDownloadRefusal(o) === null,
          (out) => orderDownloadPath(extras.organizerSlug!, extras.eventSlug, o.code, out),
          absoluteUrl,
        )
      : [],
    checkin_attention: o.checkinAttention,
    checkin_text: o.checkinText,
    last_modified: isoUtc(o.lastModified),
    payments: extras.payments.sort((a, b) => a.localId - b.localId).map(toOrderPaymentJson),
    refunds: [...extras.refunds]
      .sort((a, b) => a.localId - b.localId)
      .map((r) => toOrderRefundJson(r, extras.payments.find((p) => p.id === r.paymentId)?.localId ?? null)),
    require_approval: o.requireApproval,
    valid_if_pending: o.validIfPending,
    url: null,
    customer: o.customer ?? null,
    cancellation_date: isoUtc(o.cancellationDate),
    api_meta: o.apiMeta,
    plugin_data: o.pluginData,
  };
}

/**
 * The `seat` of a position before {@link fillSeats} (`position-seats.ts`) completes it: the id only (name and guid
 * belong to the seating context and are filled in one batch), or null.
 */
export function seatStub(seatId: number | null): PositionSeatJson | null {
  return seatId === null ? null : { id: seatId, name: '', seat_guid: '' };
}
