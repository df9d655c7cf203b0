import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { ErrorCollector, invalidPk } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import type { Event } from '../../organizers/event.entity';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import { AutoCheckinRule } from './auto-checkin-rule.entity';
import type { CreateAutoCheckinRuleDto } from './auto-checkin-rule.dto';
import { AutoCheckinRuleJson, toAutoCheckinRuleJson } from './auto-checkin-rule.presenter';
import { AutoCheckinQueries } from './auto-checkin.queries';
import { PLACED_NEEDS_ALL_PAYMENT_METHODS } from './auto-checkin.rules';

type RuleInput = Complete<CreateAutoCheckinRuleDto>;

/** Defaults of every field (pretix's model defaults); create and PUT start from these. */
const DEFAULTS: RuleInput = {
  list: null,
  mode: 'placed',
  all_sales_channels: true,
  limit_sales_channels: [],
  all_products: true,
  limit_products: [],
  limit_variations: [],
  all_payment_methods: true,
  limit_payment_methods: [],
};

/** Audit content type (pretix model name). */
const CONTENT_TYPE = 'autocheckinrule';
const INT_MAX = 2147483647;

/**
 * Automatic check-in rules of one event (pretix 2025+ plugin `autocheckin`, `E/auto_checkin_rules/`): list,
 * detail, create, PUT/PATCH, delete; each write logs pretix's action (`pretix.plugins.autocheckin.rule.added`,
 * `.changed`, `.deleted`) with the request body. What the rules do is {@link AutoCheckinService}'s.
 */
@Injectable()
export class AutoCheckinRulesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly queries: AutoCheckinQueries,
    private readonly channels: SalesChannelDirectory,
  ) {}

  /**
   * One page of the event's rules, by id (`ordering=id`, `-id`); one statement.
   * @throws ValidationFailed for a malformed `ordering`
   */
  async list(
    event: Event,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<AutoCheckinRuleJson>> {
    const result = await this.queries.page(this.db, event.id, filters, page);
    return result.withItems(result.items.map(({ rule, refs }) => toAutoCheckinRuleJson(rule, refs)));
  }

  /** @throws NotFound for an id that is not a rule of this event */
  async get(event: Event, id: number): Promise<AutoCheckinRuleJson> {
    const { rule, refs } = await this.queries.one(this.db, event.id, id);
    return toAutoCheckinRuleJson(rule, refs);
  }

  /**
   * Creates a rule (fields omitted take pretix's defaults); logs `pretix.plugins.autocheckin.rule.added`.
   * @throws ValidationFailed as {@link validate}
   */
  async create(
    event: Event,
    principal: Principal,
    body: CreateAutoCheckinRuleDto,
  ): Promise<AutoCheckinRuleJson> {
    const input = mergeInput(body, { ...DEFAULTS });
    return this.db.transaction(async (em) => {
      await this.validate(em, event, input);
      const rule = em.create(AutoCheckinRule, { eventId: event.id });
      apply(rule, input);
      await em.save(rule);
      await this.queries.writeRefs(em, rule.id, refsOf(input));
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        rule.id,
        'pretix.plugins.autocheckin.rule.added',
        body,
      );
      return this.present(em, event, rule.id);
    });
  }

  /**
   * PUT (`replace`: omitted fields back to their defaults) or PATCH (`patch`: over the stored rule); logs
   * `pretix.plugins.autocheckin.rule.changed` (as pretix, on every update).
   * @throws NotFound for an id that is not a rule of this event
   * @throws ValidationFailed as {@link validate}, checked on the merged rule
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateAutoCheckinRuleDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<AutoCheckinRuleJson> {
    return this.db.transaction(async (em) => {
      const rule = await this.lock(em, event, id);
      const { refs } = await this.queries.one(em, event.id, id);
      const base: RuleInput = mode === 'patch' ? inputOf(toAutoCheckinRuleJson(rule, refs)) : { ...DEFAULTS };
      const input = mergeInput(body, base);
      await this.validate(em, event, input);
      apply(rule, input);
      await em.save(rule);
      await this.queries.writeRefs(em, rule.id, refsOf(input));
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        rule.id,
        'pretix.plugins.autocheckin.rule.changed',
        body,
      );
      return this.present(em, event, rule.id);
    });
  }

  /**
   * Deletes a rule; logs `pretix.plugins.autocheckin.rule.deleted`. Check-ins it made stay.
   * @throws NotFound for an id that is not a rule of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const rule = await this.lock(em, event, id);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        rule.id,
        'pretix.plugins.autocheckin.rule.deleted',
        {},
      );
      await em.delete(AutoCheckinRule, { id: rule.id, eventId: event.id });
    });
  }

  /** The rule's row, locked until the transaction ends (one writer per rule). @throws NotFound */
  private lock(em: EntityManager, event: Event, id: number): Promise<AutoCheckinRule> {
    return findOrNotFound(em, AutoCheckinRule, { id, eventId: event.id }, true);
  }

  private async present(em: EntityManager, event: Event, id: number): Promise<AutoCheckinRuleJson> {
    const { rule, refs } = await this.queries.one(em, event.id, id);
    return toAutoCheckinRuleJson(rule, refs);
  }

  /**
   * The references of the merged rule, then the cross-field rule (DRF order: field errors first, all together):
   * `list` a check-in list of the event, `limit_products` items of the event, `limit_variations` variations of
   * its items (else `Invalid pk "<id>" - object does not exist.` on the field); then `mode` `placed` needs
   * `all_payment_methods` (`{"non_field_errors": ["all_payment_methods should be used for mode=placed"]}`).
   * @throws ValidationFailed
   */
  private async validate(em: EntityManager, event: Event, input: RuleInput): Promise<void> {
    const errors = new ErrorCollector();
    const list = input.list;
    if (list !== null) {
      const known = list >= 1 && list <= INT_MAX && (await this.queries.listOfEvent(em, event.id, list));
      if (!known) errors.add('list', invalidPk(list));
    }
    const channels = new Set(await this.channels.identifiers(em, event.organizerId));
    const badChannel = input.limit_sales_channels.find((c) => !channels.has(c));
    if (badChannel !== undefined)
      errors.add('limit_sales_channels', `Object with identifier=${badChannel} does not exist.`);
    const items = await this.catalogue.itemIdsOfEvent(em, event.id, input.limit_products);
    const badItem = input.limit_products.find((i) => !items.has(i));
    if (badItem !== undefined) errors.add('limit_products', invalidPk(badItem));
    const variations = await this.catalogue.variationIdsOfEvent(em, event.id, input.limit_variations);
    const badVariation = input.limit_variations.find((v) => !variations.has(v));
    if (badVariation !== undefined) errors.add('limit_variations', invalidPk(badVariation));
    errors.throwIfAny();
    if (input.mode === 'placed' && !input.all_payment_methods) {
      errors.addNonField(PLACED_NEEDS_ALL_PAYMENT_METHODS).throwIfAny();
    }
  }
}

/** The merged input onto the entity (limit lists distinct and sorted). */
function apply(rule: AutoCheckinRule, input: RuleInput): void {
  rule.listId = input.list;
  rule.mode = input.mode;
  rule.allSalesChannels = input.all_sales_channels;
  rule.limitSalesChannels = [...new Set(input.limit_sales_channels)].sort();
  rule.allProducts = input.all_products;
  rule.allPaymentMethods = input.all_payment_methods;
  rule.limitPaymentMethods = [...new Set(input.limit_payment_methods)].sort();
}

function refsOf(input: RuleInput): { items: number[]; variations: number[] } {
  return { items: [...new Set(input.limit_products)], variations: [...new Set(input.limit_variations)] };
}

/** A stored rule's wire form as input (the base of a PATCH). */
function inputOf(json: AutoCheckinRuleJson): RuleInput {
  return {
    list: json.list,
    mode: json.mode,
    all_sales_channels: json.all_sales_channels,
    limit_sales_channels: json.limit_sales_channels,
    all_products: json.all_products,
    limit_products: json.limit_products,
    limit_variations: json.limit_variations,
    all_payment_methods: json.all_payment_methods,
    limit_payment_methods: json.limit_payment_methods,
  };
}
