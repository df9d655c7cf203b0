import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { Conflict, NotFound, Refused } from '../common/errors';
import { i18nText } from '../common/values/i18n';
import { OrderReads } from '../orders/presentation/order-reads.service';
import { logOrder } from '../orders/writing/order-log';
import type { Event } from '../organizers/event.entity';
import { JobQueues } from '../tasks/job-queues.service';
import { QUEUES } from '../tasks/queues';
import { InvoiceTransmissionQueries } from './invoice-transmission.queries';
import {
  TRANSMISSION_ACTIONS,
  TRANSMISSION_MESSAGES,
  TRANSMIT_INVOICE,
  TransmitJob,
} from './invoice-transmission.rules';

/** Attempts of one transmission job (a missing PDF is waited for with a retry). */
const TRANSMIT_ATTEMPTS = 5;

/**
 * `POST E/invoices/{number}/transmit/` and `retransmit/` (spec "Invoices" "Transmitting invoices"; pretix
 * `InvoiceViewSet.transmit`/`retransmit`): both answer 204 and leave the work to the worker's
 * `transmit-invoice` job ({@link InvoiceTransmitter}).
 */
@Injectable()
export class InvoiceTransmissionService {
  private readonly queries = new InvoiceTransmissionQueries();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly orders: OrderReads,
    private readonly queues: JobQueues,
    private readonly audit: AuditLogService,
  ) {}

  /**
   * `transmit/`: transmits the invoice, only while it is `pending` (the job does nothing when it is no longer).
   * @throws NotFound for an unknown number
   * @throws Refused 403 `The invoice is not in pending state.`
   */
  async transmit(event: Event, number: string): Promise<void> {
    const job = await this.db.transaction(async (em) => {
      const inv = await this.queries.lockByNumber(em, event.id, number);
      if (!inv) throw new NotFound();
      if (inv.transmission_status !== 'pending') throw new Refused(TRANSMISSION_MESSAGES.notPending);
      return this.jobFor(em, event, inv.id, inv.order_code, false);
    });
    await this.enqueue(job);
  }

  /**
   * `retransmit/`: transmits the invoice again whatever happened before: `pending` (date now), logged
   * `pretix.event.order.invoice.retransmitted` (`invoice`, `full_invoice_no`), then the job.
   * @throws NotFound for an unknown number
   * @throws Conflict 409 `The requested action is already in progress.` while it is `inflight`
   */
  async retransmit(event: Event, principal: Principal, number: string): Promise<void> {
    const job = await this.db.transaction(async (em) => {
      const inv = await this.queries.lockByNumber(em, event.id, number);
      if (!inv) throw new NotFound();
      if (inv.transmission_status === 'inflight') throw new Conflict(TRANSMISSION_MESSAGES.inflight);
      await this.queries.setStatus(em, inv.id, 'pending');
      await logOrder(this.audit, em, { event, principal }, inv.order_id, TRANSMISSION_ACTIONS.retransmitted, {
        invoice: inv.id,
        full_invoice_no: inv.number,
      });
      return this.jobFor(em, event, inv.id, inv.order_code, true);
    });
    await this.enqueue(job);
  }

  private async jobFor(
    em: Parameters<OrderReads['byCode']>[0],
    event: Event,
    invoiceId: number,
    orderCode: string,
    allowRetransmission: boolean,
  ): Promise<TransmitJob> {
    const order = await this.orders.byCode(em, event.id, orderCode, false);
    return {
      invoiceId,
      allowRetransmission,
      orderEmail: order?.email ?? null,
      eventName: i18nText(event.name) || event.slug,
    };
  }

  /** @throws ServiceUnavailable when Redis does not answer (the invoice stays `pending`: ask again) */
  private enqueue(job: TransmitJob): Promise<void> {
    return this.queues.enqueue(QUEUES.invoices, TRANSMIT_INVOICE, job, {
      jobId: `invoice-transmit-${job.invoiceId}-${randomUUID()}`,
      attempts: TRANSMIT_ATTEMPTS,
    });
  }
}
