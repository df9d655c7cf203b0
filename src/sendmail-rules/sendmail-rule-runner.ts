import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MailOutboxService } from '../mail/mail-outbox.service';
import { MailRecipient, mailRecipients } from '../orders/presentation/mail-recipients';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import type { Event } from '../organizers/event.entity';
import { SendmailRule } from './sendmail-rule.entity';
import { SendmailRuleQueries } from './sendmail-rule.queries';
import { fillPlaceholders, localized, ruleSendTime } from './sendmail-schedule.rules';
import { Periodic } from '../common/contributions';

/** Orders read and mailed per transaction. */
const PAGE = 100;

/** One mail a rule is about to send. */
interface Mail {
  target: string;
  to: string;
  locale: string;
  code: string;
  secret: string;
  name: string;
}

/**
 * Runs the enabled scheduled e-mail rules (compat §3.26) on each scheduler tick: a rule is due once its send time
 * (absolute, or relative to the event or each date of a series) has passed; it then mails every matching order
 * placed up to that time (and/or its attendees) that it has not mailed yet. Each page is one transaction that
 * claims `sendmail_rule_delivery` rows (`ON CONFLICT DO NOTHING`) and puts the mails of the claimed rows into the
 * outbox, so two workers never send the same mail twice and a crash sends nothing half.
 */
@Injectable()
export class SendmailRuleRunner {
  private readonly logger = new Logger('SendmailRules');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: MailOutboxService,
    private readonly config: AppConfig,
    /** Injected; the default serves callers outside Nest's container (it is stateless). */
    private readonly queries: SendmailRuleQueries = new SendmailRuleQueries(),
  ) {}

  /** @returns the number of mails put into the outbox */
  @Periodic('sendmail-rules.run')
  async run(now = new Date()): Promise<number> {
    const rules = await this.db.getRepository(SendmailRule).find({
      where: { enabled: true },
      relations: { event: { organizer: true } },
      order: { id: 'ASC' },
    });
    let sent = 0;
    for (const rule of rules) {
      try {
        sent += await this.runRule(rule, rule.event!, now);
      } catch (err) {
        this.logger.warn(`rule ${rule.id}: ${(err as Error).message}`);
      }
    }
    return sent;
  }

  private async runRule(rule: SendmailRule, event: Event, now: Date): Promise<number> {
    let subeventIds: number[] | null = null;
    let placedBefore: Date;
    if (event.hasSubevents) {
      const due = (await new SubEventQueries().activeSubeventDates(this.db.manager, event.id))
        .map((d) => ({ id: d.id, at: ruleSendTime(rule, d.dateFrom, d.dateTo, event.timezone) }))
        .filter((d): d is { id: number; at: Date } => d.at !== null && d.at <= now);
      if (due.length === 0) return 0;
      subeventIds = due.map((d) => d.id);
      // a loop, not Math.max(...list): a series may have more dates than a call may have arguments
      placedBefore = new Date(due.reduce((latest, d) => Math.max(latest, d.at.getTime()), -Infinity));
    } else {
      const at = ruleSendTime(rule, event.dateFrom, event.dateTo, event.timezone);
      if (at === null || at > now) return 0;
      placedBefore = at;
    }
    let after = 0;
    let sent = 0;
    for (;;) {
      const rows = await mailRecipients(this.db.manager, {
        eventId: event.id,
        statuses: rule.restrictToStatus,
        itemIds: rule.allProducts ? null : rule.limitProducts,
        subeventIds,
        placedBefore,
        afterOrderId: after,
        limit: PAGE,
      });
      if (rows.length === 0) return sent;
      after = rows[rows.length - 1].orderId;
      const mails = this.mailsOf(rule, rows);
      if (mails.length > 0) sent += await this.db.transaction((em) => this.send(em, rule, event, mails));
    }
  }

  /** The mails of one page: per order and/or per attendee, after the check-in filter. */
  private mailsOf(rule: SendmailRule, rows: MailRecipient[]): Mail[] {
    const wanted = (checkedIn: boolean) =>
      rule.checkedInStatus === null || (rule.checkedInStatus === 'checked_in') === checkedIn;
    const mails: Mail[] = [];
    const byOrder = new Map<number, MailRecipient[]>();
    for (const r of rows) {
      const list = byOrder.get(r.orderId);
      if (list) list.push(r);
      else byOrder.set(r.orderId, [r]); // (copying the list for each position was quadratic in an order's size)
    }
    for (const positions of byOrder.values()) {
      const o = positions[0];
      if (rule.sendTo !== 'attendees' && o.orderEmail && wanted(positions.some((p) => p.checkedIn))) {
        mails.push({
          target: `order:${o.orderId}`,
          to: o.orderEmail,
          locale: o.locale,
          code: o.code,
          secret: o.secret,
          name: o.orderName ?? '',
        });
      }
      if (rule.sendTo === 'orders') continue;
      for (const p of positions) {
        if (!p.attendeeEmail || !wanted(p.checkedIn)) continue;
        if (rule.sendTo === 'both' && p.attendeeEmail === o.orderEmail) continue;
        mails.push({
          target: `position:${p.positionId}`,
          to: p.attendeeEmail,
          locale: o.locale,
          code: o.code,
          secret: o.secret,
          name: p.attendeeName ?? o.orderName ?? '',
        });
      }
    }
    return mails;
  }

  /** Claims the delivery rows and enqueues the mails of the rows claimed here, in `em`'s transaction. */
  private async send(em: EntityManager, rule: SendmailRule, event: Event, mails: Mail[]): Promise<number> {
    const claimed = await this.queries.claimDeliveries(
      em,
      rule.id,
      mails.map((m) => m.target),
    );
    const mine = new Set(claimed.map((c) => c.target));
    const organizer = event.organizer!.slug;
    for (const m of mails.filter((x) => mine.has(x.target))) {
      const context = {
        code: m.code,
        event: localized(event.name, m.locale),
        name: m.name,
        url: `${this.config.siteUrl}/${organizer}/${event.slug}/order/${m.code}/${m.secret}/`,
      };
      await this.outbox.enqueue(em, {
        organizerId: event.organizerId,
        eventId: event.id,
        to: m.to,
        subject: fillPlaceholders(localized(rule.subject, m.locale), context),
        body: fillPlaceholders(localized(rule.template, m.locale), context),
      });
    }
    return mine.size;
  }
}
