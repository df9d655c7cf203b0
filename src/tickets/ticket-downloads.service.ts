import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { Conflict, NotFound, Refused } from '../common/errors';
import { OrderReads } from '../orders/presentation/order-reads.service';
import type { OrderJson, OrderPositionJson } from '../orders/presentation/order.presenter';
import {
  orderDownloadRefusal,
  TICKET_DOWNLOAD_MESSAGES,
  TICKET_OUTPUTS,
} from '../orders/presentation/ticket-download.rules';
import type { Event } from '../organizers/event.entity';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { QUEUES } from '../tasks/queues';
import { StoredFiles } from '../tasks/stored-files.service';
import { TasksService } from '../tasks/tasks.service';
import {
  TicketDate,
  TicketLabels,
  ticketContentKey,
  ticketFilename,
  ticketPage,
  TicketPage,
} from './ticket-content.rules';
import { TicketFileQueries, TicketTarget } from './ticket-file.queries';
import { TICKET_RENDER, TicketRenderInput } from './ticket-render.task';

/** pretix's answer while a ticket is being rendered (`RetryException`). */
export const TICKET_NOT_READY = 'The requested resource is not ready, please retry later.';
/** Seconds a client waits before asking again (`Retry-After`). */
export const TICKET_RETRY_AFTER = 2;

/** A downloadable ticket file. */
export interface TicketDownload {
  filename: string;
  content: Buffer;
}

/** What a download addresses: an order by code, or a position by id. */
export type TicketRef = { code: string } | { positionId: number };

/**
 * Ticket downloads (compat §4.4 `download/{output}/`; README "Ticket downloads"): checks the download rule
 * (`orders/presentation/ticket-download.rules.ts`, the same rule as the `downloads` fields), computes the pages
 * and their key, and answers the cached PDF of that key; when there is none, starts one `tickets.render` task
 * for the key (compare-and-set on the `ticket_file` row, so parallel requests start one) and answers 409 until
 * the worker stored it.
 */
@Injectable()
export class TicketDownloads {
  private readonly logger = new Logger('Tickets');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly orders: OrderReads,
    private readonly catalogue: SalesCatalogue,
    private readonly files: StoredFiles,
    private readonly tasks: TasksService,
    private readonly queries: TicketFileQueries,
  ) {}

  /**
   * The ticket PDF of an order (all its positions that get tickets, one page each) or of one position.
   * @throws NotFound `Unknown output provider.` for an output other than `pdf`; plain NotFound for an unknown
   *   order code or position id (or a canceled position)
   * @throws Refused 403 with pretix's message when the order or product allows no download
   * @throws Conflict 409 `{"detail"}` with `Retry-After` while the PDF is being rendered
   * @throws ServiceUnavailable when the render cannot be queued
   */
  async download(
    event: Event,
    principal: Principal,
    ref: TicketRef,
    output: string,
  ): Promise<TicketDownload> {
    if (!TICKET_OUTPUTS.includes(output)) throw new NotFound(TICKET_DOWNLOAD_MESSAGES.unknownOutput);
    const em = this.db.manager;
    const order = await this.orders.ticketOrder(em, event.id, ref);
    if (!order) throw new NotFound();
    const { json } = await this.orders.snapshot(em, order, event.slug);
    let positions: OrderPositionJson[];
    let target: TicketTarget;
    if ('positionId' in ref) {
      const position = json.positions.find((p) => p.id === ref.positionId);
      if (!position || position.canceled) throw new NotFound();
      const refusal = orderDownloadRefusal(order);
      if (refusal) throw new Refused(refusal);
      // The presenter applied the rule of ticket-download.rules.ts: no download link, no ticket.
      if (position.downloads.length === 0) throw new Refused(TICKET_DOWNLOAD_MESSAGES.product);
      positions = [position];
      target = { scope: 'position', targetId: position.id, output };
    } else {
      const refusal = orderDownloadRefusal(order);
      if (refusal) throw new Refused(refusal);
      positions = json.positions.filter((p) => !p.canceled && p.downloads.length > 0);
      if (positions.length === 0) throw new Refused(TICKET_DOWNLOAD_MESSAGES.product);
      target = { scope: 'order', targetId: order.id, output };
    }
    const pages = await this.pages(event, json, positions);
    const key = ticketContentKey(output, pages);
    const filename = ticketFilename(
      event.slug,
      order.code,
      target.scope === 'position' ? positions[0].positionid : null,
      output,
    );
    const row = await this.queries.find(em, target);
    if (row && row.content_key === key) {
      if (row.file_id) {
        const [file] = await this.files.findLive([row.file_id]);
        if (file) return { filename, content: file.content };
      } else if (row.task_id) {
        const state = (await this.tasks.statesOf([row.task_id])).get(row.task_id);
        if (state === 'waiting' || state === 'running')
          throw new Conflict(TICKET_NOT_READY, TICKET_RETRY_AFTER);
      }
    }
    await this.render(event, principal, target, row?.task_id ?? null, {
      organizerId: event.organizerId,
      key,
      filename,
      pages,
      ...target,
    });
    throw new Conflict(TICKET_NOT_READY, TICKET_RETRY_AFTER);
  }

  /** Starts the render of `input` unless another request claimed the row first (then that one renders). */
  private async render(
    event: Event,
    principal: Principal,
    target: TicketTarget,
    seenTaskId: string | null,
    input: TicketRenderInput,
  ): Promise<void> {
    const taskId = randomUUID();
    const claim = await this.queries.claim(this.db.manager, {
      ...target,
      eventId: event.id,
      key: input.key,
      taskId,
      seenTaskId,
    });
    if (!claim.won) return;
    if (claim.oldFileId) await this.files.delete([claim.oldFileId]);
    await this.tasks.start(principal, {
      id: taskId,
      kind: TICKET_RENDER,
      queue: QUEUES.tickets,
      organizerId: event.organizerId,
      eventId: event.id,
      input: { ...input },
    });
    this.logger.debug(`ticket ${input.filename}: render ${taskId} queued`);
  }

  /** The pages of `positions` with product, variation and date names (two statements). */
  private async pages(event: Event, order: OrderJson, positions: OrderPositionJson[]): Promise<TicketPage[]> {
    const em = this.db.manager;
    const names = await this.catalogue.documentLabels(em, {
      items: positions.map((p) => p.item),
      variations: positions.flatMap((p) => (p.variation === null ? [] : [p.variation])),
      taxRules: [],
    });
    const dates = await new SubEventQueries().subeventLabels(
      em,
      positions.flatMap((p) => (p.subevent === null ? [] : [p.subevent])),
    );
    const labels: TicketLabels = {
      items: names.items,
      variations: names.variations,
      subevents: new Map<number, TicketDate>(
        [...dates.values()].map((d) => [
          d.id,
          {
            name: d.name,
            from: new Date(d.dateFrom),
            to: d.dateTo ? new Date(d.dateTo) : null,
            location: d.location,
          },
        ]),
      ),
      event: {
        name: event.name,
        from: event.dateFrom,
        to: event.dateTo,
        location: event.location,
        timezone: event.timezone,
      },
    };
    return positions.map((p) => ticketPage(order, p, labels));
  }
}
