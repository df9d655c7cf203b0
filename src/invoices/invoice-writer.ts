import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import type { Order } from '../orders/entities/order.entity';
import { OrderReads } from '../orders/presentation/order-reads.service';
import type { InvoiceAddressJson } from '../orders/presentation/order.presenter';
import type { Event } from '../organizers/event.entity';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { Invoice, type InvoiceLineData } from './invoice.entity';
import {
  invoiceLines,
  LineDate,
  localized,
  negatedLines,
  recipientTexts,
  senderTexts,
} from './invoice-content.rules';
import { InvoiceSettingsService } from './invoice-settings.service';
import { InvoiceQueries } from './invoice.queries';
import { formatNumber, numberPrefix } from './invoice-settings.rules';

/** The data of an invoice that comes from the order and the settings. */
interface InvoiceContent {
  locale: string;
  currency: string;
  texts: Record<string, string | null>;
  lines: InvoiceLineData[];
  /** Recipient kind and requested transmission from the order's invoice address (pretix 2025.6). */
  recipient: RecipientTransmission;
}

/** The transmission fields an invoice takes from the order's invoice address. */
interface RecipientTransmission {
  invoiceToIsBusiness: boolean | null;
  invoiceToTransmissionInfo: Record<string, unknown>;
  transmissionType: string;
}

/**
 * pretix `build_invoice`: `invoice_to_is_business`, `invoice_to_transmission_info` and `transmission_type` from
 * the invoice address (`email` and `{}` when it has none or without one; `is_business` null without address).
 */
export function recipientTransmission(address: InvoiceAddressJson | null): RecipientTransmission {
  return {
    invoiceToIsBusiness: address ? address.is_business : null,
    invoiceToTransmissionInfo: address?.transmission_info ?? {},
    transmissionType: address?.transmission_type || 'email',
  };
}

/**
 * Writes invoices inside the caller's transaction: a new invoice for an order as it is now, the cancellation of
 * an invoice, the refresh of an invoice's data (`regenerate`). Numbers come from {@link nextNumber}.
 */
@Injectable()
export class InvoiceWriter {
  constructor(
    private readonly orders: OrderReads,
    private readonly catalogue: SalesCatalogue,
    private readonly settings: InvoiceSettingsService,
    private readonly queries: InvoiceQueries,
  ) {}

  /**
   * The next number of the event under the current prefix: one upsert of the counter row, which stays locked
   * until the caller commits (unique under concurrency; a rollback gives the number back, so no gaps).
   */
  async nextNumber(
    em: EntityManager,
    event: Pick<Event, 'id' | 'slug'>,
  ): Promise<{ prefix: string; no: number }> {
    const prefix = numberPrefix(await this.settings.get(event.id, em), event.slug);
    return { prefix, no: await this.queries.takeNextNumber(em, event.id, prefix) };
  }

  /** A new invoice of the order with its current data. */
  async issue(em: EntityManager, event: Event, order: Order): Promise<Invoice> {
    const content = await this.content(em, event, order);
    return this.insert(em, event, order, content, null);
  }

  /** The cancellation of `original`: same recipient and texts, negated lines; `original` becomes canceled. */
  async cancel(em: EntityManager, event: Event, order: Order, original: Invoice): Promise<Invoice> {
    await em.update(Invoice, { id: original.id }, { canceled: true });
    original.canceled = true;
    const texts = { ...original.texts, payment_provider_text: '', payment_provider_stamp: '' };
    return this.insert(
      em,
      event,
      order,
      {
        locale: original.locale,
        currency: original.currency,
        texts,
        lines: negatedLines(original.lines),
        recipient: {
          invoiceToIsBusiness: original.invoiceToIsBusiness,
          invoiceToTransmissionInfo: original.invoiceToTransmissionInfo,
          transmissionType: original.transmissionType,
        },
      },
      original.id,
    );
  }

  /**
   * `regenerate`: the invoice's data refreshed from the order and settings (same number); a new PDF is due. As
   * pretix's `build_invoice`, the transmission is `pending` again (its provider and date stay); a cancellation
   * keeps its recipient's transmission fields.
   */
  async refresh(em: EntityManager, event: Event, order: Order, invoice: Invoice): Promise<Invoice> {
    const content = await this.content(em, event, order);
    invoice.texts = invoice.isCancellation
      ? { ...content.texts, payment_provider_text: '', payment_provider_stamp: '' }
      : content.texts;
    invoice.lines = invoice.isCancellation ? negatedLines(content.lines) : content.lines;
    invoice.pdfGeneration += 1;
    invoice.pdfFileId = null;
    const recipient = invoice.isCancellation ? {} : content.recipient;
    if (!invoice.isCancellation) {
      Object.assign(invoice, recipient);
      invoice.transmissionStatus = 'pending';
    }
    await em.update(
      Invoice,
      { id: invoice.id },
      {
        texts: invoice.texts,
        lines: invoice.lines,
        pdfGeneration: () => 'pdf_generation + 1',
        pdfFileId: null,
        ...(invoice.isCancellation ? {} : { ...recipient, transmissionStatus: 'pending' as const }),
      },
    );
    return invoice;
  }

  private async insert(
    em: EntityManager,
    event: Event,
    order: Order,
    content: InvoiceContent,
    refersId: number | null,
  ): Promise<Invoice> {
    const { prefix, no } = await this.nextNumber(em, event);
    const row = em.create(Invoice, {
      organizerId: event.organizerId,
      eventId: event.id,
      orderId: order.id,
      orderCode: order.code,
      prefix,
      invoiceNo: no,
      number: formatNumber(prefix, no),
      isCancellation: refersId !== null,
      canceled: false,
      refersId,
      date: DateTime.now().setZone(event.timezone).toISODate() ?? new Date().toISOString().slice(0, 10),
      locale: content.locale,
      currency: content.currency,
      texts: content.texts,
      lines: content.lines,
      pdfFileId: null,
      pdfGeneration: 1,
      ...content.recipient,
      transmissionProvider: null,
      transmissionStatus: 'pending',
      transmissionDate: null,
      transmissionInfo: {},
      transmissionMailId: null,
    });
    const result = await em.insert(Invoice, row as QueryDeepPartialEntity<Invoice>);
    row.id = (result.identifiers[0] as { id: number }).id;
    return row;
  }

  /** Lines and texts from the order as it is now, the event and its settings. */
  private async content(em: EntityManager, event: Event, order: Order): Promise<InvoiceContent> {
    const settings = await this.settings.get(event.id, em);
    const locale = settings.locale;
    const snapshot = await this.orders.snapshot(em, order, event.slug);
    const json = snapshot.json;
    const labels = await this.catalogue.documentLabels(em, {
      items: json.positions.map((p) => p.item),
      variations: json.positions.flatMap((p) => (p.variation === null ? [] : [p.variation])),
      taxRules: [...json.positions, ...json.fees].flatMap((x) => (x.tax_rule === null ? [] : [x.tax_rule])),
    });
    const dates = await new SubEventQueries().subeventLabels(
      em,
      json.positions.flatMap((p) => (p.subevent === null ? [] : [p.subevent])),
    );
    const subevents = new Map<number, LineDate>(
      [...dates.values()].map((d) => [
        d.id,
        {
          name: localized(d.name, locale),
          from: new Date(d.dateFrom),
          to: d.dateTo ? new Date(d.dateTo) : null,
          location: localized(d.location, locale) || null,
        },
      ]),
    );
    const eventDate: LineDate = {
      name: localized(event.name, locale),
      from: event.dateFrom,
      to: event.dateTo,
      location: localized(event.location, locale) || null,
    };
    return {
      locale,
      currency: event.currency,
      texts: { ...senderTexts(settings, json), ...recipientTexts(json.invoice_address) },
      lines: invoiceLines(
        json,
        { ...labels, subevents, event: eventDate, hasSubevents: event.hasSubevents, now: new Date() },
        locale,
      ),
      recipient: recipientTransmission(json.invoice_address),
    };
  }
}
