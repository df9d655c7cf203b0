import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { QuotaLookup, productKey, Product } from '../catalogue/quotas/quota-lookup.service';
import { QuotaReservations } from '../catalogue/quotas/quota-reservations.service';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { QUOTA_SOLD_OUT, VouchersService } from '../catalogue/vouchers/vouchers.service';
import { NotFound, ValidationFailed } from '../common/errors';
import { setLockTimeout } from '../common/persistence/lock-timeout';
import { AppConfig } from '../config/app-config';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { Event } from '../organizers/event.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { WaitingListSettingsService } from './waiting-list-settings.service';
import { WaitingListQueries } from './waiting-list.queries';
import { WL_MESSAGES, waitingListMail, waitingListVoucher } from './waiting-list.rules';

/** Audit content type of waiting list entries (pretix model name). */
export const WAITING_LIST_CONTENT_TYPE = 'waitinglistentry';

/** pretix's refusals of `send_voucher`, answered 400 with a bare list (`["This product is currently not available."]`). */
export class WaitingListRefused extends ValidationFailed {
  constructor(readonly reason: string) {
    super([reason]);
  }
}

/** Text of an i18n value in `locale` (its language, English, any). */
function localized(value: Record<string, string> | null | undefined, locale: string): string {
  if (!value) return '';
  return value[locale] ?? value[locale.split('-')[0]] ?? value.en ?? Object.values(value)[0] ?? '';
}

/**
 * Sending a waiting list entry its voucher (pretix `WaitingListEntry.send_voucher`): the one path of
 * `POST E/waitinglistentries/{id}/send_voucher/` and of the automatic assignment. In one transaction (lock waits
 * bounded by `VOUCHER_LOCK_TIMEOUT_MS`): the entry row is locked; a voucher for the entry's item, variation and
 * date is created through the vouchers' owner ({@link VouchersService.createIn}: one use, valid for
 * `waiting_list_hours`, blocking quota, tag `waiting-list`), which locks the product's quotas and refuses when no
 * place is free, so concurrent senders never hand out more vouchers than free places; the entry gets the
 * voucher; the mail goes into the outbox (sent after the commit). Logs `pretix.voucher.added`,
 * `pretix.voucher.added.waitinglist` and `pretix.event.orders.waitinglist.voucher_assigned`.
 */
@Injectable()
export class WaitingListVouchers {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: WaitingListQueries,
    private readonly settings: WaitingListSettingsService,
    private readonly vouchers: VouchersService,
    private readonly lookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly catalogue: SalesCatalogue,
    private readonly tenancy: TenancyQueries,
    private readonly outbox: MailOutboxService,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Whether every quota the product draws on has a free place (pretix `check_quotas`); a product without quota
   * has none. With `countWaitingList`, open waiting list entries take places too (the create check).
   */
  async productAvailable(
    em: EntityManager,
    eventId: number,
    product: Product,
    countWaitingList: boolean,
  ): Promise<boolean> {
    const ids = (await this.lookup.forProducts(em, eventId, [product])).get(productKey(product)) ?? [];
    if (ids.length === 0) return false;
    const { before } = await this.reservations.count(em, ids, { lock: false, countWaitingList });
    return [...before.values()].every(
      (a) => a.available && (a.available_number === null || a.available_number > 0),
    );
  }

  /**
   * Sends the entry its voucher. `principal` null: the scheduler.
   * @throws NotFound for an id that is not an entry of the event
   * @throws WaitingListRefused `This product is currently not available.` (no free place, also when another
   *   sender took the last one meanwhile), `This entry is anonymized and can no longer be used.`, `A voucher has
   *   already been sent to this person.`
   */
  async send(event: Event, id: number, principal: Principal | null): Promise<void> {
    await this.em.transaction(async (em) => {
      await setLockTimeout(em, this.config.voucherLockTimeoutMs);
      const entry = await this.queries.one(em, event.id, id, true);
      if (!entry) throw new NotFound();
      const product: Product = {
        itemId: entry.itemId,
        variationId: entry.variationId,
        subeventId: entry.subeventId,
      };
      if (!(await this.productAvailable(em, event.id, product, false)))
        throw new WaitingListRefused(WL_MESSAGES.notAvailable);
      if (!entry.email.includes('@')) throw new WaitingListRefused(WL_MESSAGES.anonymized);
      if (entry.voucherId !== null) throw new WaitingListRefused(WL_MESSAGES.alreadySent);
      await this.issue(em, event, entry, principal);
    });
  }

  /** Creates the voucher, links it, logs and mails, on the locked entry. */
  private async issue(
    em: EntityManager,
    event: Event,
    entry: WaitingListEntry,
    principal: Principal | null,
  ): Promise<void> {
    const { waiting_list_hours: hours } = await this.settings.get(em, event.id);
    const now = new Date();
    const body = waitingListVoucher({ ...entry, name: entry.nameCached }, hours, now);
    let voucher;
    try {
      voucher = await this.vouchers.createIn(em, event, principal, body, {
        item: body.item,
        variation: body.variation,
        tag: body.tag,
        block_quota: true,
        valid_until: body.valid_until,
        max_usages: 1,
        subevent: body.subevent,
        source: 'waitinglist',
      });
    } catch (err) {
      const sold =
        err instanceof ValidationFailed &&
        JSON.stringify(err.errors) === JSON.stringify({ non_field_errors: [QUOTA_SOLD_OUT] });
      if (sold) throw new WaitingListRefused(WL_MESSAGES.notAvailable);
      throw err;
    }
    const log = (contentType: string, objectId: number, action: string, data: Record<string, unknown>) =>
      this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType,
        objectId,
        action,
        data,
      });
    await log('voucher', voucher.id, 'pretix.voucher.added.waitinglist', {
      email: entry.email,
      waitinglistentry: entry.id,
    });
    await em.update(WaitingListEntry, { id: entry.id }, { voucherId: voucher.id });
    entry.voucherId = voucher.id;

    const refs = await this.catalogue.load(em, event, { itemIds: [entry.itemId] });
    const organizer = (await this.tenancy.organizerSlugs(em, [event.organizerId])).get(event.organizerId);
    const mail = waitingListMail({
      event: localized(event.name, entry.locale),
      product: localized(refs.items.get(entry.itemId)?.name, entry.locale),
      code: voucher.code,
      url: `${this.config.siteUrl}/${organizer}/${event.slug}/redeem`,
      hours,
      validUntil: new Date(body.valid_until),
      name: entry.nameCached,
    });
    await this.outbox.enqueue(em, {
      organizerId: event.organizerId,
      eventId: event.id,
      to: entry.email,
      subject: mail.subject,
      body: mail.body,
    });
    await log(WAITING_LIST_CONTENT_TYPE, entry.id, 'pretix.event.orders.waitinglist.voucher_assigned', {
      subject: mail.subject,
      recipients: [entry.email],
      voucher: voucher.id,
    });
  }
}
