import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import {
  AvailabilityOptions,
  lockQuotas,
  QUOTA_AVAILABILITY,
  QuotaAvailability,
  QuotaAvailabilityResult,
} from './quota-availability';
import { Quota } from './quota.entity';

/** pretix's message when a reservation does not fit a quota (compat §3.2, §4.4). */
export const quotaExceededMessage = (quota: string): string =>
  `There is not enough quota available on quota "${quota}" to perform the operation.`;

/** pretix's message for a product that draws on no quota (compat §3.2, §4.4). */
export const noQuotaMessage = (product: string): string =>
  `The product "${product}" is not assigned to a quota.`;

/** A quota had fewer free places than a reservation needs. */
export class QuotaExceeded extends Error {
  constructor(readonly quota: Quota) {
    super(quotaExceededMessage(quota.name));
  }
}

/**
 * Reserving places on quotas without ever overselling (architecture.md "Concurrency"): inside the caller's
 * writing transaction, lock only the quotas involved (id order), count what is taken, check, and close quotas
 * with `close_when_sold_out` that the reservation sells out (spec "States and transitions": they stay closed).
 * Used by blocking vouchers now, by orders and cart positions later.
 */
@Injectable()
export class QuotaReservations {
  constructor(
    @Inject(QUOTA_AVAILABILITY) private readonly engine: QuotaAvailability,
    private readonly audit: AuditLogService,
  ) {}

  /**
   * @param needed places per quota id, or one number for every quota
   * @returns the locked quotas and their availability before the reservation
   * @throws QuotaExceeded naming the first quota (by id) without enough free places; closed quotas have none
   */
  async reserve(
    em: EntityManager,
    principal: Principal | null,
    quotaIds: readonly number[],
    needed: number | ReadonlyMap<number, number>,
    options: AvailabilityOptions = {},
  ): Promise<{ quotas: Quota[]; before: Map<number, QuotaAvailabilityResult> }> {
    const quotas = await lockQuotas(em, quotaIds);
    const before = await this.engine.compute(em, quotas, options);
    const want = (id: number) => (typeof needed === 'number' ? needed : (needed.get(id) ?? 0));
    for (const quota of quotas) {
      const avail = before.get(quota.id)!;
      const n = want(quota.id);
      if (n <= 0) continue;
      if (!avail.available || (avail.available_number !== null && avail.available_number < n))
        throw new QuotaExceeded(quota);
    }
    for (const quota of quotas) {
      const left = before.get(quota.id)!.available_number;
      if (quota.closeWhenSoldOut && !quota.closed && left !== null && left - want(quota.id) <= 0) {
        await this.close(em, principal, quota);
      }
    }
    return { quotas, before };
  }

  /** Closes a quota (logged `pretix.event.quota.closed`); it stays closed until reopened through the API. */
  async close(em: EntityManager, principal: Principal | null, quota: Quota): Promise<void> {
    await em.update(Quota, { id: quota.id }, { closed: true });
    quota.closed = true;
    const organizer: { organizer_id: number }[] = await em.query(
      'SELECT organizer_id FROM event WHERE id = $1',
      [quota.eventId],
    );
    await this.audit.record(em, principal, {
      organizerId: organizer[0].organizer_id,
      eventId: quota.eventId,
      contentType: 'quota',
      objectId: quota.id,
      action: 'pretix.event.quota.closed',
      data: { reason: 'sold_out' },
    });
  }
}
