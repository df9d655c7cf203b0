import { ApiDateTime, ApiInt } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import type { RevokedSecret } from '../entities/revoked-secret.entity';
import type { BlockedSecret } from './blocked-secret.entity';

/** An entry of `E/blockedsecrets/` (pretix's blocked ticket secret). */
export class BlockedSecretJson {
  @ApiInt()
  id!: number;
  /** The ticket secret. */
  secret!: string;
  /** Last change of the entry (UTC). */
  @ApiDateTime()
  updated!: string;
  /** Whether the secret is blocked now (false once every block was removed; the entry stays). */
  blocked!: boolean;
}

/** An entry of `E/revokedsecrets/` (pretix's revoked ticket secret). */
export class RevokedSecretJson {
  @ApiInt()
  id!: number;
  /** The replaced ticket secret. */
  secret!: string;
  /** When it was replaced (UTC). */
  @ApiDateTime()
  created!: string;
}

export function toBlockedSecretJson(b: BlockedSecret): BlockedSecretJson {
  return { id: b.id, secret: b.secret, updated: isoUtc(b.updated), blocked: b.blocked };
}

export function toRevokedSecretJson(r: RevokedSecret): RevokedSecretJson {
  return { id: r.id, secret: r.secret, created: isoUtc(r.created) };
}
