import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { EventMetaProperty } from './event-meta-property.entity';
import { MetaDataResult, resolveMetaData } from './meta-data.rules';

/**
 * Checks and resolves the `meta_data` of an event or date written by `principal` in the organizer (one
 * statement: the organizer's properties). See {@link resolveMetaData}.
 */
export async function checkMetaData(
  em: EntityManager,
  organizerId: number,
  principal: Principal,
  sent: Record<string, unknown>,
  before: Record<string, string>,
): Promise<MetaDataResult> {
  const properties = await em.find(EventMetaProperty, { where: { organizerId } });
  const mayWriteProtected = principal
    .organizerPermissions(organizerId)
    .has('organizer.settings.general:write');
  return resolveMetaData(properties, sent, before, mayWriteProtected);
}
