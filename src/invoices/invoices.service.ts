import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { InvalidRequest, NotFound } from '../common/errors';
import { setLockTimeout } from '../common/persistence/lock-timeout';
import { AppConfig } from '../config/app-config';
import { AfterCommit, OrderHooks, OrderTransitionContext } from '../orders/writing/order-hooks';
import { OrderReads } from '../orders/presentation/order-reads.service';
import { logOrder } from '../orders/writing/order-log';
import { AuditLogService } from '../audit/audit-log.service';
import type { Order } from '../orders/entities/order.entity';
import type { Event } from '../organizers/event.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { StoredFiles } from '../tasks/stored-files.service';
import { Invoice } from './invoice.entity';
import { InvoicePdfJobs, PdfRequest } from './invoice-pdf-jobs';
import { InvoiceReads } from './invoice-reads.service';
import { InvoiceSettingsService } from './invoice-settings.service';
import { generatesOn } from './invoice-settings.rules';
import { InvoiceWriter } from './invoice-writer';
import { InvoiceQueries } from './invoice.queries';
import type { InvoiceJson } from './invoice.presenter';

/** pretix's log actions of invoice writes requested over the API. */
export const INVOICE_ACTIONS = {
  generated: 'pretix.event.order.invoice.generated',
} as const;

/**
 * pretix `invoice_qualified`: not free, not awaiting approval, neither canceled nor expired. (pretix's sales
 * channel and business-only settings are not served: every order passes them.)
 */
export function invoiceQualified(order: Pick<Order, 'total' | 'requireApproval' | 'status'>): boolean {
  if (Number(order.total) === 0) return false;
  if (order.requireApproval) return false;
  return order.status !== 'c' && order.status !== 'e';
}

/** pretix's messages (compat §3.24, §4.4). */
export const INVOICE_MESSAGES = {
  cannotGenerate: 'You cannot generate an invoice for this order.',
  exists: 'An invoice for this order already exists.',
  alreadyCanceled: 'The invoice has already been canceled.',
  cancellation: 'A cancellation invoice cannot be reissued.',
} as const;

/**
 * Invoices of orders (spec "Invoice"; compat §3.24, §4.4 `create_invoice`): created on request, automatically
 * on order placement or payment as `invoice_generate` says (through the orders context's {@link OrderHooks},
 * registered at module init), canceled with the order; `reissue` and `regenerate`. Every write runs in one
 * transaction that locks the order row first (one invoice writer per order at a time) and takes its number from
 * the event's counter row; the PDF is asked of the worker after the commit.
 */
@Injectable()
export class InvoicesService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly hooks: OrderHooks,
    private readonly orders: OrderReads,
    private readonly tenancy: TenancyQueries,
    private readonly writer: InvoiceWriter,
    private readonly settings: InvoiceSettingsService,
    private readonly reads: InvoiceReads,
    private readonly pdfs: InvoicePdfJobs,
    private readonly files: StoredFiles,
    private readonly audit: AuditLogService,
    private readonly queries: InvoiceQueries,
  ) {}

  onModuleInit(): void {
    this.hooks.onTransition((ctx) => this.onOrderTransition(ctx));
  }

  /**
   * `POST E/orders/{code}/create_invoice/` (pretix `OrderViewSet.create_invoice`): an invoice of the order as it
   * is now, logged `pretix.event.order.invoice.generated` (`{"invoice": id}`).
   * @returns the invoice (201)
   * @throws NotFound for a code that is no order of the event
   * @throws InvalidRequest `You cannot generate an invoice for this order.` when `invoice_generate` is `False` or
   *   the order does not qualify ({@link invoiceQualified}), else `An invoice for this order already exists.` when
   *   it has invoices, unless it is pending or paid with at least as many cancellations as invoices
   */
  async createForOrder(event: Event, principal: Principal, code: string): Promise<InvoiceJson> {
    const invoice = await this.inOrderTransaction(event, code, async (em, order) => {
      const settings = await this.settings.get(event.id, em);
      if (settings.invoice_generate === 'False' || !invoiceQualified(order))
        throw new InvalidRequest(INVOICE_MESSAGES.cannotGenerate);
      if (await this.hasInvoice(em, order)) throw new InvalidRequest(INVOICE_MESSAGES.exists);
      const made = await this.writer.issue(em, event, order);
      await logOrder(this.audit, em, { event, principal }, order.id, INVOICE_ACTIONS.generated, {
        invoice: made.id,
      });
      return [made];
    });
    return this.reads.get(event, invoice[0].number);
  }

  /**
   * `POST E/invoices/{number}/reissue/`: a cancellation of the invoice and, unless the order is canceled, a new
   * invoice with the order's current data.
   * @throws NotFound for an unknown number
   * @throws InvalidRequest `The invoice has already been canceled.`; a cancellation invoice cannot be reissued
   */
  async reissue(event: Event, number: string): Promise<void> {
    const orderCode = await this.orderCodeOf(event, number);
    await this.inOrderTransaction(event, orderCode, async (em, order) => {
      const invoice = await this.lockedInvoice(em, event, number);
      if (invoice.canceled) throw new InvalidRequest(INVOICE_MESSAGES.alreadyCanceled);
      if (invoice.isCancellation) throw new InvalidRequest(INVOICE_MESSAGES.cancellation);
      const made = [await this.writer.cancel(em, event, order, invoice)];
      if (order.status !== 'c') made.push(await this.writer.issue(em, event, order));
      return made;
    });
  }

  /**
   * `POST E/invoices/{number}/regenerate/`: the same number with data refreshed from the order and the settings;
   * the old PDF is deleted and a new one rendered.
   * @throws NotFound for an unknown number
   * @throws InvalidRequest `The invoice has already been canceled.`
   */
  async regenerate(event: Event, number: string): Promise<void> {
    const orderCode = await this.orderCodeOf(event, number);
    await this.inOrderTransaction(event, orderCode, async (em, order) => {
      const invoice = await this.lockedInvoice(em, event, number);
      if (invoice.canceled) throw new InvalidRequest(INVOICE_MESSAGES.alreadyCanceled);
      const oldFile = invoice.pdfFileId;
      await this.writer.refresh(em, event, order, invoice);
      if (oldFile) await this.files.delete([oldFile], em);
      return [invoice];
    });
  }

  /**
   * The orders' hook, inside the order change's transaction: automatic invoices on placement or payment
   * (`invoice_generate` `True`/`paid`, when the order has no valid invoice), the cancellation of every valid
   * invoice when the order is canceled (and a new invoice when a cancellation fee keeps it paid), and on an order
   * change (`changed`, compat §4.4 "Changing order contents"): the last invoice reissued, or the split-off order's
   * own invoice.
   */
  private async onOrderTransition(ctx: OrderTransitionContext): Promise<AfterCommit | void> {
    const { em, order } = ctx;
    const made: Invoice[] = [];
    // One statement when nothing is to be done (the common case: no invoice to cancel, none to make).
    if (ctx.transition === 'changed' && ctx.splitFrom) {
      // pretix `_create_split_order`: an order split off one with an invoice gets its own (unless it is free).
      if (Number(order.total) === 0) return;
      const had = await em.exists(Invoice, { where: { orderId: ctx.splitFrom.id, isCancellation: false } });
      if (!had) return;
      made.push(await this.writer.issue(em, await this.fullEvent(em, ctx.event), order));
    } else if (ctx.transition === 'changed') {
      // pretix `_reissue_invoice`: the last valid invoice is canceled and a new one issued when invoices are
      // generated automatically now (`True`, `paid` for a paid order) or the order already had one.
      const settings = await this.settings.get(ctx.event.id, em);
      const last = await em.findOne(Invoice, {
        where: { orderId: order.id, isCancellation: false, canceled: false },
        order: { id: 'DESC' },
      });
      const now =
        settings.invoice_generate === 'True' ||
        (settings.invoice_generate === 'paid' && order.status === 'p') ||
        (settings.invoice_generate !== 'False' && last !== null);
      if (!now) return;
      const event = await this.fullEvent(em, ctx.event);
      if (last) made.push(await this.writer.cancel(em, event, order, last));
      made.push(await this.writer.issue(em, event, order));
    } else if (ctx.transition === 'canceled') {
      const valid = await em.find(Invoice, {
        where: { orderId: order.id, isCancellation: false, canceled: false },
        order: { id: 'ASC' },
      });
      if (valid.length === 0) return;
      const event = await this.fullEvent(em, ctx.event);
      for (const inv of valid) made.push(await this.writer.cancel(em, event, order, inv));
      if (order.status !== 'c') made.push(await this.writer.issue(em, event, order));
    } else {
      const settings = await this.settings.get(ctx.event.id, em);
      if (!generatesOn(settings.invoice_generate, ctx.transition, order.status === 'p')) return;
      if (await this.hasValidInvoice(em, order.id)) return;
      made.push(await this.writer.issue(em, await this.fullEvent(em, ctx.event), order));
    }
    const renders = made.map(toRender);
    return () => this.pdfs.request(renders);
  }

  /** Runs `work` with the locked order of the event, commits, then asks for the PDFs of the invoices it wrote. */
  private async inOrderTransaction(
    event: Event,
    code: string,
    work: (em: EntityManager, order: Order) => Promise<Invoice[]>,
  ): Promise<Invoice[]> {
    const invoices = await this.db.transaction(async (em) => {
      await setLockTimeout(em, this.config.orderLockTimeoutMs);
      const order = await this.orders.byCode(em, event.id, code, true);
      if (!order) throw new NotFound();
      return work(em, order);
    });
    await this.pdfs.request(invoices.map(toRender));
    return invoices;
  }

  /**
   * pretix's `has_inv`: the order has invoices, and is not (pending or paid with at least as many cancellation
   * invoices as others). One statement.
   */
  private async hasInvoice(em: EntityManager, order: Order): Promise<boolean> {
    const { cancellations, others } = await this.queries.invoiceCounts(em, order.id);
    if (cancellations + others === 0) return false;
    return !((order.status === 'p' || order.status === 'n') && cancellations >= others);
  }

  private async hasValidInvoice(em: EntityManager, orderId: number): Promise<boolean> {
    return em.exists(Invoice, { where: { orderId, isCancellation: false, canceled: false } });
  }

  private async orderCodeOf(event: Event, number: string): Promise<string> {
    const inv = await this.db.getRepository(Invoice).findOne({
      where: { eventId: event.id, number },
      select: { id: true, orderCode: true },
    });
    if (!inv) throw new NotFound();
    return inv.orderCode;
  }

  private async lockedInvoice(em: EntityManager, event: Event, number: string): Promise<Invoice> {
    const inv = await em.findOne(Invoice, {
      where: { eventId: event.id, number },
      lock: { mode: 'pessimistic_write' },
    });
    if (!inv) throw new NotFound();
    return inv;
  }

  /** The full event row (the hooks get only the order's view of it). */
  private async fullEvent(em: EntityManager, event: Pick<Event, 'id' | 'organizerId'>): Promise<Event> {
    const [full] = await this.tenancy.eventsByIds(em, event.organizerId, [event.id]);
    if (!full) throw new NotFound();
    return full;
  }
}

function toRender(inv: Invoice): PdfRequest {
  return { invoiceId: inv.id, generation: inv.pdfGeneration };
}
