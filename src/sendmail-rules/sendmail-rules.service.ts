import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { byRef, refIds, type ObjectRef } from '../common/listing/object-refs';
import type { Principal } from '../auth/principal';
import { ItemQueries } from '../catalogue/items/item.queries';
import { invalidPk, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findOrNotFound } from '../common/persistence/find';
import { mergeInput, WriteMode } from '../common/persistence/write';
import { parseDateTimeOrNull } from '../common/values/datetime';
import { toI18n } from '../common/values/i18n';
import type { Event } from '../organizers/event.entity';
import type { CreateSendmailRuleDto } from './sendmail-rule.dto';
import { SendmailRule } from './sendmail-rule.entity';
import { SendmailRuleQueries } from './sendmail-rule.queries';
import { SendmailRuleJson, toSendmailRuleJson } from './sendmail-rule.presenter';
import {
  checkSendmailRule,
  SENDMAIL_RULE_DEFAULTS,
  SendmailRuleInput,
  statusesOfIncludePending,
} from './sendmail-rule.rules';

/** Audit content type (pretix's model name). */
const CONTENT_TYPE = 'scheduledmail';

/**
 * Scheduled e-mail rules of one event: list, detail, create, update, delete (compat §3.26). Every query is scoped by
 * the event the permission guard resolved. Logs `pretix.plugins.sendmail.rule.added|changed|deleted`.
 */
@Injectable()
@RendersChanges('sendmailrule')
export class SendmailRulesService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: SendmailRuleQueries,
  ) {}

  /** One page; filters `id`, `send_to` and the booleans; ordering `id`. Two SQL statements whatever the page size. */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<SendmailRuleJson>> {
    return this.queries.rulesPage(this.db, event.id, filters, page, (rows) => rows.map(toSendmailRuleJson));
  }

  /** The change feed's rules (each of its ref's event) as {@link get} answers them. One statement. */
  async renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const rules = await this.db.find(SendmailRule, { where: { id: In(refIds(refs)) } });
    return byRef(
      refs,
      rules.map((r) => ({ id: r.id, eventId: r.eventId, json: toSendmailRuleJson(r) })),
    );
  }

  /** @throws NotFound for an id that is not a rule of this event */
  async get(event: Event, id: number): Promise<SendmailRuleJson> {
    return toSendmailRuleJson(await findOrNotFound(this.db, SendmailRule, { id, eventId: event.id }, false));
  }

  /**
   * Creates a rule.
   * @throws ValidationFailed (compat §3.26 rules; `limit_products` naming items of another event)
   */
  async create(event: Event, principal: Principal, body: CreateSendmailRuleDto): Promise<SendmailRuleJson> {
    const input = this.merge(body, { ...SENDMAIL_RULE_DEFAULTS } as SendmailRuleInput);
    return this.db.transaction(async (em) => {
      await this.checkProducts(em, event, input);
      const rule = em.create(SendmailRule, { eventId: event.id });
      this.apply(rule, input);
      await em.save(rule);
      await this.log(em, principal, event, rule.id, 'pretix.plugins.sendmail.rule.added', body);
      return toSendmailRuleJson(rule);
    });
  }

  /**
   * PUT (`replace`) or PATCH (`patch`); the rules are checked on the merged data.
   * @throws NotFound, ValidationFailed
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateSendmailRuleDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<SendmailRuleJson> {
    return this.db.transaction(async (em) => {
      const rule = await findOrNotFound(em, SendmailRule, { id, eventId: event.id }, true);
      const before = toSendmailRuleJson(rule);
      const { include_pending: _legacy, ...stored } = before;
      const base =
        mode === 'patch'
          ? (stored as SendmailRuleInput)
          : ({ ...SENDMAIL_RULE_DEFAULTS } as SendmailRuleInput);
      const input = this.merge(body, base);
      await this.checkProducts(em, event, input);
      this.apply(rule, input);
      const after = toSendmailRuleJson(rule);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(rule);
        await this.log(em, principal, event, rule.id, 'pretix.plugins.sendmail.rule.changed', body);
      }
      return after;
    });
  }

  /** Deletes a rule (its record of sent mails goes with it). @throws NotFound */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const rule = await findOrNotFound(em, SendmailRule, { id, eventId: event.id }, true);
      await this.log(em, principal, event, rule.id, 'pretix.plugins.sendmail.rule.deleted', {});
      await em.delete(SendmailRule, { id: rule.id, eventId: event.id });
    });
  }

  /** Body over base, the legacy `include_pending` mapped, then the §3.26 rules. @throws ValidationFailed */
  private merge(body: Partial<CreateSendmailRuleDto>, base: SendmailRuleInput): SendmailRuleInput {
    const { include_pending: includePending, ...rest } = body;
    const input = mergeInput(rest, base);
    if (includePending !== undefined && rest.restrict_to_status === undefined) {
      input.restrict_to_status = statusesOfIncludePending(includePending);
    }
    checkSendmailRule(input, body);
    return input;
  }

  /** @throws ValidationFailed on `limit_products` when an id is no item of the event */
  private async checkProducts(em: EntityManager, event: Event, input: SendmailRuleInput): Promise<void> {
    const ids = [...new Set(input.limit_products)];
    const found = await new ItemQueries().eventItemIds(em, event.id, ids);
    const missing = ids.find((i) => !found.has(i));
    if (missing !== undefined) throw ValidationFailed.field('limit_products', invalidPk(missing));
  }

  private apply(rule: SendmailRule, input: SendmailRuleInput): void {
    rule.enabled = input.enabled;
    rule.subject = toI18n(input.subject);
    rule.template = toI18n(input.template);
    rule.allProducts = input.all_products;
    rule.limitProducts = [...new Set(input.limit_products)];
    rule.restrictToStatus = [...new Set(input.restrict_to_status)];
    rule.checkedInStatus = input.checked_in_status;
    rule.dateIsAbsolute = input.date_is_absolute;
    rule.sendDate = parseDateTimeOrNull(input.send_date);
    rule.sendOffsetDays = input.send_offset_days;
    rule.sendOffsetTime = input.send_offset_time === null ? null : input.send_offset_time.slice(0, 5);
    rule.offsetToEventEnd = input.offset_to_event_end;
    rule.offsetIsAfter = input.offset_is_after;
    rule.sendTo = input.send_to;
  }

  private async log(
    em: EntityManager,
    principal: Principal,
    event: Event,
    id: number,
    action: string,
    body: object,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: CONTENT_TYPE,
      objectId: id,
      action,
      data: { ...body },
    });
  }
}
