import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { NotFound, Refused, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { uniqueAsValidation } from '../common/persistence/unique';
import { OrganizerRef, TenancyQueries } from '../organizers/tenancy.queries';
import type { CreateGiftCardAcceptanceDto, UpdateGiftCardAcceptanceDto } from './giftcard-acceptance.dto';
import { GiftCardAcceptance } from './giftcard-acceptance.entity';
import { GiftCardAcceptanceQueries } from './giftcard-acceptance.queries';
import { GiftCardAcceptanceJson, toGiftCardAcceptanceJson } from './giftcard.presenter';

/** The permission both sides of an acceptance need to create or change it (compat §3.4). */
export const ACCEPTANCE_PERMISSION = 'organizer.giftcards:write';

export const ISSUER_PERMISSION_NEEDED =
  'You need the gift card write permission of the issuing organizer to accept its gift cards.';
export const ALREADY_ACCEPTED = "This organizer's gift cards are already accepted.";
export const OWN_CARDS = 'An organizer always accepts its own gift cards.';

/** Audit content type: acceptances are logged on the accepting organizer (pretix's `organizer` log). */
const CONTENT_TYPE = 'organizer';

/**
 * Gift card acceptance between organizers (pretix's `GiftCardAcceptance`; compat §3.4): the acceptor lists and
 * manages the issuers whose cards it accepts at `O/giftcards/acceptance/`. Creating or changing an acceptance
 * needs `organizer.giftcards:write` on both sides: the acceptor's is checked by the route, the issuer's here,
 * because no route names the issuer (a team token belongs to one organizer, so in practice an OAuth user in
 * teams of both, or the CLI `accept-giftcards`). Ending an acceptance is the acceptor's own decision and needs
 * only its side. Audit on the acceptor: `pretix.giftcards.acceptance.added|changed|removed`.
 */
@Injectable()
export class GiftCardAcceptancesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
    private readonly queries: GiftCardAcceptanceQueries,
  ) {}

  /** One page of the acceptor's acceptances, ordering `id` (default); rows, count and issuer slugs in one statement. */
  async list(
    acceptor: OrganizerRef,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<GiftCardAcceptanceJson>> {
    return this.queries.acceptancesPage(
      this.db.manager,
      acceptor.id,
      filters,
      page,
      (organizerId) => this.tenancy.organizerSlugOf(organizerId),
      (row, issuer) => toGiftCardAcceptanceJson(row, issuer),
    );
  }

  /** @throws NotFound when the acceptor does not accept the cards of an organizer with this slug */
  async get(acceptor: OrganizerRef, issuerSlug: string): Promise<GiftCardAcceptanceJson> {
    const { acceptance, issuer } = await this.load(this.db.manager, acceptor, issuerSlug, false);
    return toGiftCardAcceptanceJson(acceptance, issuer.slug);
  }

  /**
   * The acceptor starts accepting the issuer's cards (`active` default true, `reusable_media` default false).
   * @throws Refused (403) when the issuer is unknown or the principal lacks its gift card write permission
   * @throws ValidationFailed (400) for the acceptor itself or an issuer already accepted
   */
  async create(
    acceptor: OrganizerRef,
    principal: Principal | null,
    body: CreateGiftCardAcceptanceDto,
  ): Promise<GiftCardAcceptanceJson> {
    const issuer = await this.tenancy.organizerRefBySlug(this.db.manager, body.issuer);
    this.checkIssuer(principal, issuer);
    if (issuer.id === acceptor.id) throw ValidationFailed.field('issuer', OWN_CARDS);
    const acceptance = await uniqueAsValidation(
      'uq_giftcard_acceptance_issuer_acceptor',
      'issuer',
      ALREADY_ACCEPTED,
      () =>
        this.db.transaction(async (em) => {
          if (
            await em.exists(GiftCardAcceptance, { where: { issuerId: issuer.id, acceptorId: acceptor.id } })
          ) {
            throw ValidationFailed.field('issuer', ALREADY_ACCEPTED);
          }
          const acceptance = em.create(GiftCardAcceptance, {
            issuerId: issuer.id,
            acceptorId: acceptor.id,
            active: body.active ?? true,
            reusableMedia: body.reusable_media ?? false,
          });
          await em.insert(GiftCardAcceptance, acceptance);
          await this.record(em, principal, acceptor, 'pretix.giftcards.acceptance.added', {
            issuer: issuer.slug,
            active: acceptance.active,
            reusable_media: acceptance.reusableMedia,
          });
          return acceptance;
        }),
    );
    return toGiftCardAcceptanceJson(acceptance, issuer.slug);
  }

  /**
   * Changes `active` and/or `reusable_media`.
   * @throws NotFound when the acceptor does not accept this issuer
   * @throws Refused (403) when the principal lacks the issuer's gift card write permission
   */
  async update(
    acceptor: OrganizerRef,
    principal: Principal | null,
    issuerSlug: string,
    body: UpdateGiftCardAcceptanceDto,
  ): Promise<GiftCardAcceptanceJson> {
    return this.db.transaction(async (em) => {
      const { acceptance, issuer } = await this.load(em, acceptor, issuerSlug, true);
      this.checkIssuer(principal, issuer);
      const next = {
        active: body.active ?? acceptance.active,
        reusableMedia: body.reusable_media ?? acceptance.reusableMedia,
      };
      if (next.active !== acceptance.active || next.reusableMedia !== acceptance.reusableMedia) {
        await em.update(GiftCardAcceptance, { id: acceptance.id }, next);
        Object.assign(acceptance, next);
        await this.record(em, principal, acceptor, 'pretix.giftcards.acceptance.changed', {
          issuer: issuer.slug,
          active: next.active,
          reusable_media: next.reusableMedia,
        });
      }
      return toGiftCardAcceptanceJson(acceptance, issuer.slug);
    });
  }

  /**
   * The acceptor stops accepting the issuer's cards.
   * @throws NotFound when the acceptor does not accept this issuer
   */
  async delete(acceptor: OrganizerRef, principal: Principal | null, issuerSlug: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const { acceptance, issuer } = await this.load(em, acceptor, issuerSlug, true);
      await em.delete(GiftCardAcceptance, { id: acceptance.id });
      await this.record(em, principal, acceptor, 'pretix.giftcards.acceptance.removed', {
        issuer: issuer.slug,
      });
    });
  }

  /**
   * For the CLI `accept-giftcards` (the installation's operator, no principal): the acceptor accepts the issuer's
   * cards with these flags, creating the acceptance or updating an existing one (running it twice is harmless).
   * @throws Error naming an unknown organizer, or the same organizer on both sides
   */
  async ensure(
    acceptorSlug: string,
    issuerSlug: string,
    flags: { active: boolean; reusableMedia: boolean },
  ): Promise<GiftCardAcceptanceJson & { acceptor: string; created: boolean }> {
    const acceptor = await this.tenancy.organizerRefBySlug(this.db.manager, acceptorSlug);
    if (!acceptor) throw new Error(`Unknown organizer "${acceptorSlug}" (--acceptor)`);
    const issuer = await this.tenancy.organizerRefBySlug(this.db.manager, issuerSlug);
    if (!issuer) throw new Error(`Unknown organizer "${issuerSlug}" (--issuer)`);
    if (issuer.id === acceptor.id) throw new Error(OWN_CARDS);
    const existing = await this.db.manager.exists(GiftCardAcceptance, {
      where: { issuerId: issuer.id, acceptorId: acceptor.id },
    });
    const body = { active: flags.active, reusable_media: flags.reusableMedia };
    const json = existing
      ? await this.update(acceptor, null, issuer.slug, body)
      : await this.create(acceptor, null, { issuer: issuer.slug, ...body });
    return { acceptor: acceptor.slug, ...json, created: !existing };
  }

  /**
   * Ids of the issuers whose reusable media this organizer may look up: active acceptances with
   * `reusable_media` (compat §3.3 lookup). One statement.
   */
  async mediaIssuers(em: EntityManager, acceptorId: number): Promise<number[]> {
    const rows = await em.getRepository(GiftCardAcceptance).find({
      select: { issuerId: true },
      where: { acceptorId, active: true, reusableMedia: true },
      order: { id: 'ASC' },
    });
    return rows.map((r) => r.issuerId);
  }

  /** A null principal is the CLI (the operator of the installation). */
  private checkIssuer(
    principal: Principal | null,
    issuer: OrganizerRef | null,
  ): asserts issuer is OrganizerRef {
    if (!issuer) throw new Refused(ISSUER_PERMISSION_NEEDED);
    if (principal && !principal.organizerPermissions(issuer.id).has(ACCEPTANCE_PERMISSION)) {
      throw new Refused(ISSUER_PERMISSION_NEEDED);
    }
  }

  private async load(
    em: EntityManager,
    acceptor: OrganizerRef,
    issuerSlug: string,
    lock: boolean,
  ): Promise<{ acceptance: GiftCardAcceptance; issuer: OrganizerRef }> {
    const issuer = await this.tenancy.organizerRefBySlug(em, issuerSlug);
    if (!issuer) throw new NotFound();
    const acceptance = await em.findOne(GiftCardAcceptance, {
      where: { issuerId: issuer.id, acceptorId: acceptor.id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!acceptance) throw new NotFound();
    return { acceptance, issuer };
  }

  private async record(
    em: EntityManager,
    principal: Principal | null,
    acceptor: OrganizerRef,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: acceptor.id,
      contentType: CONTENT_TYPE,
      objectId: acceptor.id,
      action,
      data,
    });
  }
}
