import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { refIds, type ObjectRef } from '../common/listing/object-refs';
import type { Principal } from '../auth/principal';
import { ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { findOrNotFound } from '../common/persistence/find';
import { randomString } from '../common/values/random';
import type { Organizer } from '../organizers/organizer.entity';
import type { CreateGateDto, UpdateGateDto } from './gate.dto';
import { Gate } from './gate.entity';
import { GateJson, toGateJson } from './gate.presenter';
import { GateQueries } from './gate.queries';

/** pretix's message for an identifier another gate of the organizer has. */
export const GATE_IDENTIFIER_TAKEN = 'This identifier is already used for a different question.';
const IDENTIFIER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ3789';

/**
 * Gates of an organizer (`O/gates/`, an extension: pretix manages gates only in its backend). Devices point to a
 * gate; deleting a gate clears it on its devices. Writes log `pretix.gate.created` / `.changed` / `.deleted`.
 */
@Injectable()
@RendersChanges('gate')
export class GatesService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: GateQueries,
  ) {}

  /** A page of the organizer's gates by name. One statement. */
  async list(organizer: Organizer, page: PageRequest): Promise<Paginated<GateJson>> {
    const found = await this.queries.page(this.db, organizer.id, page);
    return found.withItems(found.items.map(toGateJson));
  }

  /** The change feed's gates as {@link get} answers them. One statement. */
  async renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const gates = await this.db.find(Gate, {
      where: { id: In(refIds(refs)), organizerId: scope.organizer.id },
    });
    return new Map(gates.map((g) => [g.id, toGateJson(g)]));
  }

  /** @throws NotFound */
  async get(organizer: Organizer, id: number): Promise<GateJson> {
    return toGateJson(await findOrNotFound(this.db, Gate, { id, organizerId: organizer.id }));
  }

  /** @throws ValidationFailed naming `identifier` when another gate of the organizer has it */
  async create(organizer: Organizer, principal: Principal, body: CreateGateDto): Promise<GateJson> {
    return this.db.transaction(async (em) => {
      await this.queries.lockIdentifiers(em, organizer.id);
      const identifier = await this.identifierFor(em, organizer, body.identifier, null);
      const gate = await em.save(em.create(Gate, { organizerId: organizer.id, name: body.name, identifier }));
      await this.log(em, principal, gate, 'pretix.gate.created', { ...body, id: gate.id });
      return toGateJson(gate);
    });
  }

  /** @throws NotFound; ValidationFailed as for create */
  async update(
    organizer: Organizer,
    principal: Principal,
    id: number,
    body: UpdateGateDto,
  ): Promise<GateJson> {
    return this.db.transaction(async (em) => {
      await this.queries.lockIdentifiers(em, organizer.id);
      const gate = await findOrNotFound(em, Gate, { id, organizerId: organizer.id }, true);
      if (body.name !== undefined) gate.name = body.name;
      if (body.identifier !== undefined)
        gate.identifier = await this.identifierFor(em, organizer, body.identifier, gate.id);
      await em.save(gate);
      await this.log(em, principal, gate, 'pretix.gate.changed', { ...body });
      return toGateJson(gate);
    });
  }

  /** Deletes a gate (its devices keep working without one). @throws NotFound */
  async delete(organizer: Organizer, principal: Principal, id: number): Promise<void> {
    await this.db.transaction(async (em) => {
      const gate = await findOrNotFound(em, Gate, { id, organizerId: organizer.id }, true);
      await this.log(em, principal, gate, 'pretix.gate.deleted', { name: gate.name });
      await em.delete(Gate, { id: gate.id });
    });
  }

  /** The identifier to store: the given one (checked for uniqueness) or a generated free one. */
  private async identifierFor(
    em: EntityManager,
    organizer: Organizer,
    wanted: string | undefined,
    exceptId: number | null,
  ): Promise<string> {
    if (wanted) {
      if (await this.queries.identifierTaken(em, organizer.id, wanted, exceptId)) {
        throw ValidationFailed.field('identifier', GATE_IDENTIFIER_TAKEN);
      }
      return wanted;
    }
    for (;;) {
      const code = randomString(IDENTIFIER_ALPHABET, 8);
      if (!(await this.queries.identifierTaken(em, organizer.id, code, exceptId))) return code;
    }
  }

  private log(
    em: EntityManager,
    principal: Principal,
    gate: Gate,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: gate.organizerId,
      contentType: 'gate',
      objectId: gate.id,
      action,
      data,
    });
  }
}
