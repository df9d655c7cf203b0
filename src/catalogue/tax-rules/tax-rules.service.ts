import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Inject, Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, ResourceInUse } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { toI18n } from '../../common/values/i18n';
import { Decimal } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { TAX_RULE_USAGE, TaxRuleUsage } from './tax-rule-usage.port';
import { CreateTaxRuleDto } from './tax-rule.dto';
import { TaxRule } from './tax-rule.entity';
import { TaxRuleJson, toTaxRuleJson } from './tax-rule.presenter';
import { TaxRuleQueries } from './tax-rule.queries';
import { normalizeCustomRules, taxCodeRateError } from './tax-rule.rules';

/** The merged input a write applies: every writable field. */
type TaxRuleInput = Complete<CreateTaxRuleDto>;

/** Defaults of optional tax rule fields (compat §3.19); PUT resets omitted ones to these (`default` excepted). */
const TAX_RULE_DEFAULTS: Omit<TaxRuleInput, 'name' | 'rate' | 'default'> = {
  internal_name: null,
  code: null,
  price_includes_tax: true,
  eu_reverse_charge: false,
  home_country: '',
  keep_gross_if_rate_changes: false,
  custom_rules: null,
};

/** Audit content type of tax rules (pretix model name). */
const CONTENT_TYPE = 'taxrule';

export const TAX_RULE_IN_USE = 'This tax rule can not be deleted as it is currently in use.';
export const HOME_COUNTRY_REQUIRED = 'You need to set your home country to use the reverse charge feature.';
export const DEFAULT_NOT_REMOVABLE =
  "You can't remove the default property, instead set it on another tax rule.";

/**
 * Tax rules of one event: list, detail, create, update, delete (compat §3.19, spec "Tax rule"). Every query is
 * scoped by the event resolved by the permission guard. Writes of one event's rules are serialized (a
 * transaction-scoped advisory lock), so exactly one rule is the default whenever rules exist.
 */
@Injectable()
@RendersChanges('taxrule')
export class TaxRulesService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    @Inject(TAX_RULE_USAGE) private readonly usage: TaxRuleUsage,
    private readonly queries: TaxRuleQueries,
  ) {}

  /** One page of the event's tax rules; ordering `id` (the default). Two SQL statements whatever the page size. */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<TaxRuleJson>> {
    return this.queries.page(this.db, event.id, filters, page, (rows) => rows.map(toTaxRuleJson));
  }

  /** The change feed's taxrule objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers of the tax rules `refs` names that still exist in their event, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, TaxRuleJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.db.find(TaxRule, { where: { id: In(refIds(refs)) } });
    return byRef(
      refs,
      rows.map((r) => ({ id: r.id, eventId: r.eventId, json: toTaxRuleJson(r) })),
    );
  }

  /** @throws NotFound for an id that is not a tax rule of this event */
  async get(event: Event, id: number): Promise<TaxRuleJson> {
    return toTaxRuleJson(await this.load(this.db, event, id, false));
  }

  /**
   * Creates a tax rule; logs `pretix.event.taxrule.added`. The event's first rule becomes the default whatever
   * `default` says; `default: true` moves the default property from the other rules to this one.
   * @throws ValidationFailed on invalid fields, reverse charge without `home_country`, or a code that does not
   * fit the rate
   */
  async create(event: Event, principal: Principal, body: CreateTaxRuleDto): Promise<TaxRuleJson> {
    const input = mergeInput(body, { ...TAX_RULE_DEFAULTS, default: false } as TaxRuleInput);
    return this.db.transaction(async (em) => {
      await this.lockEventRules(em, event);
      this.validate(input, null);
      const others = await this.queries.countOfEvent(em, event.id);
      const rule = em.create(TaxRule, { eventId: event.id });
      this.apply(rule, input);
      rule.isDefault = input.default || others === 0;
      await em.save(rule);
      if (rule.isDefault) await this.clearOtherDefaults(em, event, rule.id);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: rule.id,
        action: 'pretix.event.taxrule.added',
        data: { ...body },
      });
      return toTaxRuleJson(rule);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults, an omitted `default` stays) or PATCH (`patch`: only sent
   * fields change); rules are checked on the merged data. Logs `pretix.event.taxrule.changed` only when the
   * wire object changed.
   * @throws NotFound for an id that is not a tax rule of this event
   * @throws ValidationFailed on invalid data, or `default: false` on the current default rule
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateTaxRuleDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<TaxRuleJson> {
    return this.db.transaction(async (em) => {
      await this.lockEventRules(em, event);
      const rule = await this.load(em, event, id, true);
      const before = toTaxRuleJson(rule);
      const base: TaxRuleInput =
        mode === 'patch'
          ? { ...before }
          : ({ ...TAX_RULE_DEFAULTS, default: rule.isDefault } as TaxRuleInput);
      const input = mergeInput(body, base);
      this.validate(input, rule);
      const becomesDefault = input.default && !rule.isDefault;
      this.apply(rule, input);
      rule.isDefault = input.default;
      const after = toTaxRuleJson(rule);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(rule);
        if (becomesDefault) await this.clearOtherDefaults(em, event, rule.id);
        await this.audit.record(em, principal, {
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: rule.id,
          action: 'pretix.event.taxrule.changed',
          data: { ...body },
        });
      }
      return after;
    });
  }

  /**
   * Deletes a tax rule; logs `pretix.event.taxrule.deleted`.
   * @throws NotFound for an id that is not a tax rule of this event
   * @throws ResourceInUse (403) when items or sales (via the {@link TaxRuleUsage} port) use the rule, or when it is
   * the default while the event has other rules
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      await this.lockEventRules(em, event);
      const rule = await this.load(em, event, id, true);
      const { items, others } = await this.queries.use(em, event.id, rule.id);
      if (items || (rule.isDefault && others)) throw new ResourceInUse(TAX_RULE_IN_USE);
      if (await this.usage.isUsed(em, rule.id)) throw new ResourceInUse(TAX_RULE_IN_USE);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: rule.id,
        action: 'pretix.event.taxrule.deleted',
        data: {},
      });
      await em.delete(TaxRule, { id: rule.id, eventId: event.id });
    });
  }

  /** Serializes the writes to one event's tax rules until the transaction ends (the default invariant). */
  private async lockEventRules(em: EntityManager, event: Event): Promise<void> {
    await this.queries.lockEventRules(em, event.id);
  }

  private async clearOtherDefaults(em: EntityManager, event: Event, keepId: number): Promise<void> {
    await this.queries.clearOtherDefaults(em, event.id, keepId);
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<TaxRule> {
    return findOrNotFound(em, TaxRule, { id, eventId: event.id }, lock);
  }

  /**
   * Cross-field rules of compat §3.19 on the merged input; `current` is the stored rule on update.
   * @throws ValidationFailed
   */
  private validate(input: TaxRuleInput, current: TaxRule | null): void {
    const errors = new ErrorCollector();
    if (input.eu_reverse_charge && !input.home_country) errors.add('home_country', HOME_COUNTRY_REQUIRED);
    const codeError = taxCodeRateError(input.code, input.rate);
    if (codeError) errors.add('code', codeError);
    if (current?.isDefault && !input.default) errors.add('default', DEFAULT_NOT_REMOVABLE);
    errors.throwIfAny();
  }

  /** Writes the merged input onto the entity (everything but `default`, which the caller settles). */
  private apply(rule: TaxRule, input: TaxRuleInput): void {
    rule.name = toI18n(input.name);
    rule.internalName = input.internal_name;
    rule.rate = new Decimal(input.rate).toFixed(2);
    rule.code = input.code;
    rule.priceIncludesTax = input.price_includes_tax;
    rule.euReverseCharge = input.eu_reverse_charge;
    rule.homeCountry = input.home_country ?? '';
    rule.keepGrossIfRateChanges = input.keep_gross_if_rate_changes;
    rule.customRules = normalizeCustomRules(input.custom_rules) as unknown as
      Record<string, unknown>[] | null;
  }
}
