import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UserQueries } from '../auth/user.queries';
import { OAuthToken } from './oauth-token.entity';

/** The auth context's fragments (stateless). */
const users = new UserQueries();

/** One application a user has authorized, as stored: the union of what its live tokens grant. */
export interface AuthorizedApplicationRow {
  application_id: number;
  scopes: string[];
  organizer_ids: number[];
}

/**
 * The SQL of OAuth token pairs (`oauth_token`; spec "Authentication" 5). Stateless; every method runs
 * in the caller's `em` and takes no explicit lock (the guarded UPDATEs are atomic by their WHERE).
 */
@Injectable()
export class OAuthTokenQueries {
  /** Revokes both halves of token row `tokenId` unless its refresh token is already revoked; rows changed. */
  async useRefreshToken(em: EntityManager, tokenId: number): Promise<number> {
    const res = await em
      .getRepository(OAuthToken)
      .createQueryBuilder()
      .update()
      .set({ refreshRevoked: true, accessRevoked: true })
      .where('id = :id AND NOT refresh_revoked', { id: tokenId })
      .execute();
    return res.affected ?? 0;
  }

  /** Revokes token row `tokenId` and every token of its family (same authorization code), in one statement. */
  async revokeFamily(em: EntityManager, tokenId: number): Promise<void> {
    await em.query(
      `UPDATE oauth_token SET access_revoked = true, refresh_revoked = true
        WHERE id = $1
           OR authorization_code_id = (SELECT authorization_code_id FROM oauth_token WHERE id = $1)`,
      [tokenId],
    );
  }

  /**
   * The access token with this hash and whether its user is active (the auth context's fragment, same
   * statement); null when unknown.
   */
  async byAccessHash(
    em: EntityManager,
    tokenHash: string,
  ): Promise<{ token: OAuthToken; userActive: boolean } | null> {
    const { entities, raw } = await em
      .getRepository(OAuthToken)
      .createQueryBuilder('t')
      .addSelect(users.userIsActive('t.user_id'), 'user_active')
      .where('t.access_token_hash = :tokenHash', { tokenHash })
      .getRawAndEntities<{ user_active: boolean }>();
    const token = entities[0];
    return token ? { token, userActive: raw[0].user_active } : null;
  }

  /** Applications `userId` has authorized (a live refresh token), by application id. One statement. */
  authorizedBy(em: EntityManager, userId: number): Promise<AuthorizedApplicationRow[]> {
    return em.query(
      `SELECT application_id,
                ARRAY(SELECT DISTINCT s FROM oauth_token t2, unnest(t2.scopes) s
                       WHERE t2.user_id = $1 AND t2.application_id = t.application_id AND NOT t2.refresh_revoked
                       ORDER BY s) AS scopes,
                ARRAY(SELECT DISTINCT o FROM oauth_token t3, unnest(t3.organizer_ids) o
                       WHERE t3.user_id = $1 AND t3.application_id = t.application_id AND NOT t3.refresh_revoked
                       ORDER BY o) AS organizer_ids
           FROM oauth_token t WHERE t.user_id = $1 AND NOT t.refresh_revoked
          GROUP BY application_id ORDER BY application_id`,
      [userId],
    );
  }

  /** Revokes every live token `userId` granted to application `applicationId`; rows changed. */
  async revokeAuthorization(em: EntityManager, userId: number, applicationId: number): Promise<number> {
    const res = await em
      .getRepository(OAuthToken)
      .createQueryBuilder()
      .update()
      .set({ accessRevoked: true, refreshRevoked: true })
      .where('user_id = :userId AND application_id = :applicationId AND NOT refresh_revoked', {
        userId,
        applicationId,
      })
      .execute();
    return res.affected ?? 0;
  }

  /** Deletes token pairs whose refresh token is revoked and whose access token has expired; rows deleted. */
  async prune(em: EntityManager): Promise<number> {
    const res = await em
      .getRepository(OAuthToken)
      .createQueryBuilder()
      .delete()
      .where('refresh_revoked AND access_expires < now()')
      .execute();
    return res.affected ?? 0;
  }
}
