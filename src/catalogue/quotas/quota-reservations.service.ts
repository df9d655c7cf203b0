import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { DomainError } from '../../common/errors';
import type { Event } from '../../organizers/event.entity';
import {
  AvailabilityOptions,
  CountedQuota,
  QUOTA_AVAILABILITY,
  QuotaAvailability,
  QuotaAvailabilityResult,
} from './quota-availability';
import { ProductQuota, QuotaLookup } from './quota-lookup.service';
import { Quota } from './quota.entity';

/** pretix's message when a reservation does not fit a quota (compat §3.2, §4.4). */
export const quotaExceededMessage = (quota: string): string =>
  `There is not enough quota available on quota "${quota}" to perform the operation.`;

/** pretix's message for a product that draws on no quota (compat §3.2, §4.4). */
export const noQuotaMessage = (product: string): string =>
  `The product "${product}" is not assigned to a quota.`;

/**
 * A quota had fewer free places than a reservation needs. Callers turn it into the answer of their route (a bare
 * list for carts, `{"detail"}` for order actions, `non_field_errors` for vouchers); unmapped, it is a 500.
 */
export class QuotaExceeded extends DomainError {
  constructor(readonly quota: Quota) {
    super(quotaExceededMessage(quota.name));
  }
}

/** Who reserves: the event (for the audit entries of closed quotas) and the credential. */
export interface ReservationActor {
  event: Pick<Event, 'id' | 'organizerId'>;
  principal: Principal | null;
}

/** Quotas locked for a reservation and how full they were before it. */
export interface CountedQuotas {
  quotas: ProductQuota[];
  before: Map<number, QuotaAvailabilityResult>;
}

/**
 * Reserving places on quotas without ever overselling (architecture.md "Concurrency"): inside the caller's
 * writing transaction, lock only the quotas involved (id order), count what is taken, check, and close quotas
 * with `close_when_sold_out` that the reservation sells out (spec "States and transitions": they stay closed).
 * Used by orders (create, revive), cart positions and blocking vouchers.
 */
@Injectable()
export class QuotaReservations {
  constructor(
    @Inject(QUOTA_AVAILABILITY) private readonly engine: QuotaAvailability,
    private readonly lookup: QuotaLookup,
    private readonly audit: AuditLogService,
  ) {}

  /**
   * Reserves places: locks, counts, checks, closes what sells out.
   * @param needed places per quota id, or one number for every quota
   * @returns the locked quotas and their availability before the reservation
   * @throws QuotaExceeded naming the first quota (by id) without enough free places; closed quotas have none
   */
  async reserve(
    em: EntityManager,
    actor: ReservationActor,
    quotaIds: readonly number[],
    needed: number | ReadonlyMap<number, number>,
    options: AvailabilityOptions = {},
  ): Promise<CountedQuotas> {
    const counted = await this.count(em, quotaIds, { ...options, lock: true });
    const want = wanted(needed);
    for (const quota of counted.quotas) {
      const avail = counted.before.get(quota.id)!;
      const n = want(quota.id);
      if (n <= 0) continue;
      if (!avail.available || (avail.available_number !== null && avail.available_number < n))
        throw new QuotaExceeded(quota);
    }
    await this.closeSoldOut(em, actor, counted, needed);
    return counted;
  }

  /**
   * How full quotas are. With `lock`, the rows are locked (id order) first, for callers that hand out the places
   * themselves (bulk cart creation) and finish with {@link closeSoldOut}; without, nothing is locked (previews).
   */
  async count(
    em: EntityManager,
    quotaIds: readonly number[],
    options: AvailabilityOptions & { lock: boolean },
  ): Promise<CountedQuotas> {
    const quotas = await this.lookup.load(em, quotaIds, options.lock);
    return { quotas, before: await this.engine.compute(em, quotas, options) };
  }

  /** Availability of quotas whose products the caller already has (one engine call). */
  availability(
    em: EntityManager,
    quotas: readonly CountedQuota[],
    options: AvailabilityOptions = {},
  ): Promise<Map<number, QuotaAvailabilityResult>> {
    return this.engine.compute(em, quotas, options);
  }

  /**
   * Closes the quotas with `close_when_sold_out` that taking `needed` places (counted under the locks of
   * {@link count}) leaves without a free place.
   */
  async closeSoldOut(
    em: EntityManager,
    actor: ReservationActor,
    counted: CountedQuotas,
    needed: number | ReadonlyMap<number, number>,
  ): Promise<void> {
    const want = wanted(needed);
    for (const quota of counted.quotas) {
      const left = counted.before.get(quota.id)!.available_number;
      if (quota.closeWhenSoldOut && !quota.closed && left !== null && left - want(quota.id) <= 0) {
        await this.close(em, actor, quota);
      }
    }
  }

  /** Closes a quota (logged `pretix.event.quota.closed`); it stays closed until reopened through the API. */
  async close(em: EntityManager, actor: ReservationActor, quota: Quota): Promise<void> {
    await em.update(Quota, { id: quota.id }, { closed: true });
    quota.closed = true;
    await this.audit.record(em, actor.principal, {
      organizerId: actor.event.organizerId,
      eventId: quota.eventId,
      contentType: 'quota',
      objectId: quota.id,
      action: 'pretix.event.quota.closed',
      data: { reason: 'sold_out' },
    });
  }
}

function wanted(needed: number | ReadonlyMap<number, number>): (id: number) => number {
  return (id) => (typeof needed === 'number' ? needed : (needed.get(id) ?? 0));
}
