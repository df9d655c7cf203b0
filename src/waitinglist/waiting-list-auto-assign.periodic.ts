import { Injectable, Logger } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, IsNull } from 'typeorm';
import { productKey } from '../catalogue/quotas/quota-lookup.service';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { Periodic } from '../common/contributions';
import { NotFound } from '../common/errors';
import type { Event } from '../organizers/event.entity';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { WaitingListRefused, WaitingListVouchers } from './waiting-list-vouchers.service';
import { WaitingListQueries } from './waiting-list.queries';
import { presaleRunning, WL_MESSAGES } from './waiting-list.rules';

/** Open entries of one event looked at per tick (the rest wait for the next tick). */
const ENTRIES_PER_EVENT = 200;

/**
 * The automatic assignment of the waiting list (pretix `process_waitinglist` + `assign_automatically`), run by
 * the scheduler tick (`waitinglist.assign`): for each live event with open entries, `waiting_list_auto` on
 * (pretix's default) and its presale running (or a series), the open entries in pretix's order (priority
 * descending, then oldest first) each get a voucher through {@link WaitingListVouchers.send}, the path of
 * `send_voucher`, as long as their product has a free place. That path locks the entry and the product's quotas,
 * so ticks of two workers at once never send more vouchers than there are free places nor two to one entry.
 * Entries of inactive products or inactive dates are skipped; once a product has no place left, its other
 * entries are skipped for this run.
 */
@Injectable()
export class WaitingListAutoAssign {
  private readonly logger = new Logger('WaitingList');

  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: WaitingListQueries,
    private readonly tenancy: TenancyQueries,
    private readonly subevents: SubEventQueries,
    private readonly catalogue: SalesCatalogue,
    private readonly vouchers: WaitingListVouchers,
  ) {}

  /** @returns the number of vouchers sent */
  @Periodic('waitinglist.assign')
  async run(now = new Date()): Promise<number> {
    const candidates = await this.queries.autoAssignEvents(this.em);
    if (candidates.length === 0) return 0;
    const events = await this.tenancy.eventsByIdsAnyOrganizer(
      this.em,
      candidates.map((c) => c.id),
    );
    let sent = 0;
    for (const event of events) {
      if (!event.live || (!event.hasSubevents && !presaleRunning(event, now))) continue;
      try {
        sent += await this.assign(event);
      } catch (err) {
        this.logger.warn(`event ${event.id}: ${(err as Error).message}`);
      }
    }
    return sent;
  }

  /** Sends vouchers to the event's open entries while their products have places. @returns vouchers sent */
  private async assign(event: Event): Promise<number> {
    const entries = await this.em.getRepository(WaitingListEntry).find({
      where: { eventId: event.id, voucherId: IsNull() },
      order: { priority: 'DESC', created: 'ASC', id: 'ASC' },
      take: ENTRIES_PER_EVENT,
    });
    const refs = await this.catalogue.load(this.em, event, { itemIds: entries.map((e) => e.itemId) });
    const activeDates = event.hasSubevents
      ? new Set((await this.subevents.activeSubeventDates(this.em, event.id)).map((d) => d.id))
      : null;
    const gone = new Set<string>();
    let sent = 0;
    for (const entry of entries) {
      const key = productKey(entry);
      if (gone.has(key)) continue;
      if (activeDates && (entry.subeventId === null || !activeDates.has(entry.subeventId))) continue;
      if (!refs.items.get(entry.itemId)?.active) {
        gone.add(key);
        continue;
      }
      try {
        await this.vouchers.send(event, entry.id, null);
        sent++;
      } catch (err) {
        if (err instanceof WaitingListRefused) {
          if (err.reason === WL_MESSAGES.notAvailable) gone.add(key);
        } else if (!(err instanceof NotFound)) {
          this.logger.warn(`entry ${entry.id}: ${(err as Error).message}`);
        }
      }
    }
    return sent;
  }
}
