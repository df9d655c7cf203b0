import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { ErrorCollector, invalidPk, NotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { uniqueAsValidation } from '../common/persistence/unique';
import { Complete, WriteMode } from '../common/persistence/write';
import { isoUtc, parseDateTimeOrNull } from '../common/values/datetime';
import { CustomerReads, unknownCustomer } from '../customers/customer-reads.service';
import { GiftCardAcceptancesService } from '../giftcards/giftcard-acceptances.service';
import { GiftCardReads } from '../giftcards/giftcard-reads.service';
import { OrderPositionReads } from '../orders/presentation/order-position-reads.service';
import type { OrganizerRef } from '../organizers/tenancy.queries';
import { MEDIUM_EXPANDS, ReusableMediaPresentation } from './reusable-media-presentation';
import type {
  CreateReusableMediumDto,
  LookupReusableMediumDto,
  ReplaceReusableMediumDto,
} from './reusable-medium.dto';
import { ReusableMedium } from './reusable-medium.entity';
import { ReusableMediumQueries } from './reusable-medium.queries';
import { ReusableMediumJson, ReusableMediumLookupJson } from './reusable-medium.presenter';

/**
 * How a single medium is answered (style.md "Data access": typed options instead of the list's `QueryFilters`):
 * `expand`, the {@link MEDIUM_EXPANDS} names asked for with `?expand=` (`linked_giftcard`, …).
 */
export interface MediumAnswerOptions {
  expand: ReadonlySet<string>;
}

export const DUPLICATE_MEDIUM =
  'A medium with the same identifier and type already exists in your organizer account.';

/** Audit content type of media (pretix model name). */
const CONTENT_TYPE = 'reusablemedium';

/** The changeable fields of a medium, merged (PUT: over the defaults; PATCH: over the current state). */
type MediumInput = Complete<ReplaceReusableMediumDto>;

/** Defaults of the changeable fields (compat §3.3); PUT resets omitted ones to these. */
const MEDIUM_DEFAULTS: MediumInput = {
  active: true,
  expires: null,
  customer: null,
  linked_orderposition: null,
  linked_giftcard: null,
  info: {},
  notes: null,
};

/**
 * Reusable media of one organizer (spec "Reusable media"; compat §3.3): list, detail, create, update,
 * lookup. Links are validated within the organizer (another organizer's gift card or order position is 400).
 * `type` and `identifier` never change. Lists run the page and its count in one statement plus the expansions
 * asked for. Audit: `pretix.reusable_medium.created|changed`.
 */
@Injectable()
export class ReusableMediaService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly presentation: ReusableMediaPresentation,
    private readonly giftcards: GiftCardReads,
    private readonly acceptances: GiftCardAcceptancesService,
    private readonly positions: OrderPositionReads,
    private readonly queries: ReusableMediumQueries,
    private readonly customers: CustomerReads,
  ) {}

  /**
   * One page. Filters `identifier` (exact), `type`, `active`, `customer`, `created_since`, `updated_since`,
   * `linked_orderposition`, `linked_giftcard`; ordering `created`, `updated`, `identifier`, `type`, `id`
   * (default `-updated,-id`); `expand`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async list(
    organizer: OrganizerRef,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<ReusableMediumJson>> {
    const list = this.queries.mediaList(this.db.manager, organizer.id, filters);
    const expand = filters.expand(MEDIUM_EXPANDS);
    const result = await this.queries.page(list, page);
    return result.withItems(
      await this.presentation.present(this.db.manager, result.items, organizer, expand),
    );
  }

  /** @throws NotFound for an id that is not a medium of this organizer */
  async get(organizer: OrganizerRef, id: number, options: MediumAnswerOptions): Promise<ReusableMediumJson> {
    const medium = await this.load(this.db.manager, organizer, id, false);
    return this.presentOne(medium, organizer, options);
  }

  /**
   * Creates a medium; logs `pretix.reusable_medium.created`.
   * @throws ValidationFailed (400) for a duplicate identifier of the type, links (also a customer) outside the organizer
   */
  async create(
    organizer: OrganizerRef,
    principal: Principal,
    body: CreateReusableMediumDto,
    options: MediumAnswerOptions,
  ): Promise<ReusableMediumJson> {
    const input = merge(body, MEDIUM_DEFAULTS);
    const medium = await uniqueAsValidation(
      'uq_reusable_medium_organizer_type_identifier',
      'identifier',
      DUPLICATE_MEDIUM,
      () =>
        this.db.transaction(async (em) => {
          const errors = await this.checkReferences(em, organizer, body);
          const taken = await em.exists(ReusableMedium, {
            where: { organizerId: organizer.id, type: body.type, identifier: body.identifier },
          });
          if (taken) errors.add('identifier', DUPLICATE_MEDIUM);
          errors.throwIfAny();
          const medium = em.create(ReusableMedium, {
            organizerId: organizer.id,
            type: body.type,
            identifier: body.identifier,
          });
          apply(medium, input);
          await em.save(medium);
          await this.record(em, principal, organizer, medium, 'pretix.reusable_medium.created', { ...body });
          return medium;
        }),
    );
    return this.presentOne(medium, organizer, options);
  }

  /**
   * PUT (`replace`: omitted fields reset to their defaults) or PATCH (`patch`: only the fields sent); `type` and
   * `identifier` are kept whatever the body says. Logs `pretix.reusable_medium.changed` when something changed,
   * which also moves `updated`.
   * @throws NotFound for an id that is not a medium of this organizer
   * @throws ValidationFailed (400) for links (also a customer) outside the organizer
   */
  async update(
    organizer: OrganizerRef,
    id: number,
    principal: Principal,
    body: Partial<ReplaceReusableMediumDto>,
    mode: Exclude<WriteMode, 'create'>,
    options: MediumAnswerOptions,
  ): Promise<ReusableMediumJson> {
    const medium = await this.db.transaction(async (em) => {
      const medium = await this.load(em, organizer, id, true);
      (await this.checkReferences(em, organizer, body)).throwIfAny();
      const before = inputOf(medium);
      const after = merge(body, mode === 'patch' ? before : MEDIUM_DEFAULTS);
      if (!isDeepStrictEqual(before, after)) {
        apply(medium, after);
        medium.updated = new Date();
        await em.save(medium);
        await this.record(em, principal, organizer, medium, 'pretix.reusable_medium.changed', { ...body });
      }
      return medium;
    });
    return this.presentOne(medium, organizer, options);
  }

  /**
   * Finds a medium by type and identifier (compat §3.3): in this organizer first, then among the media of
   * issuers that share their media with it (active acceptances with `reusable_media`). A medium of another
   * organizer is answered only with its gift card: `linked_orderposition` and `customer` are null. Nothing
   * found: `{"result": null}`. Media are never created here (no type of this service creates media on lookup).
   */
  async lookup(
    organizer: OrganizerRef,
    body: LookupReusableMediumDto,
    options: MediumAnswerOptions,
  ): Promise<ReusableMediumLookupJson> {
    const em = this.db.manager;
    const issuers = await this.acceptances.mediaIssuers(em, organizer.id);
    const medium = await this.queries.lookup(
      em,
      [organizer.id, ...issuers],
      organizer.id,
      body.type,
      body.identifier,
    );
    if (!medium) return { result: null };
    if (medium.organizerId !== organizer.id) {
      medium.linkedOrderpositionId = null;
      medium.customer = null;
    }
    return { result: await this.presentOne(medium, organizer, options) };
  }

  private async presentOne(
    medium: ReusableMedium,
    viewer: OrganizerRef,
    options: MediumAnswerOptions,
  ): Promise<ReusableMediumJson> {
    return (await this.presentation.present(this.db.manager, [medium], viewer, options.expand))[0];
  }

  /**
   * Errors for the references a body sends: an order position, a gift card or a customer outside the organizer.
   * At most three statements.
   */
  private async checkReferences(
    em: EntityManager,
    organizer: OrganizerRef,
    body: Partial<ReplaceReusableMediumDto>,
  ): Promise<ErrorCollector> {
    const errors = new ErrorCollector();
    const position = body.linked_orderposition;
    if (
      typeof position === 'number' &&
      !(await this.positions.inOrganizer(em, organizer.id, [position])).has(position)
    ) {
      errors.add('linked_orderposition', invalidPk(position));
    }
    const card = body.linked_giftcard;
    if (typeof card === 'number' && !(await this.giftcards.issuedBy(em, organizer.id, [card])).has(card)) {
      errors.add('linked_giftcard', invalidPk(card));
    }
    if (
      typeof body.customer === 'string' &&
      !(await this.customers.byIdentifier(em, organizer.id, body.customer))
    ) {
      errors.add('customer', unknownCustomer(body.customer));
    }
    return errors;
  }

  private async load(
    em: EntityManager,
    organizer: OrganizerRef,
    id: number,
    lock: boolean,
  ): Promise<ReusableMedium> {
    const medium = await em.findOne(ReusableMedium, {
      where: { id, organizerId: organizer.id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!medium) throw new NotFound();
    return medium;
  }

  private async record(
    em: EntityManager,
    principal: Principal,
    organizer: OrganizerRef,
    medium: ReusableMedium,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: organizer.id,
      contentType: CONTENT_TYPE,
      objectId: medium.id,
      action,
      data: { ...data, id: medium.id },
    });
  }
}

/** The body's sent fields over a base. */
function merge(body: Partial<ReplaceReusableMediumDto>, base: MediumInput): MediumInput {
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(MEDIUM_DEFAULTS)) {
    const value = (body as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  out.expires = isoUtc(parseDateTimeOrNull(out.expires as string | null));
  return out as MediumInput;
}

/** The changeable fields of a stored medium in wire form (datetimes normalised for comparison). */
function inputOf(m: ReusableMedium): MediumInput {
  return {
    active: m.active,
    expires: isoUtc(m.expires),
    customer: m.customer,
    linked_orderposition: m.linkedOrderpositionId,
    linked_giftcard: m.linkedGiftcardId,
    info: m.info,
    notes: m.notes,
  };
}

function apply(m: ReusableMedium, input: MediumInput): void {
  m.active = input.active;
  m.expires = parseDateTimeOrNull(input.expires);
  m.customer = input.customer;
  m.linkedOrderpositionId = input.linked_orderposition;
  m.linkedGiftcardId = input.linked_giftcard;
  m.info = input.info;
  m.notes = input.notes;
}
