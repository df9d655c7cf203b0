import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { User } from './user.entity';

/**
 * The SQL of user accounts (the auth context owns `user_account`; architecture.md "Layout": other contexts use
 * the owner's services or the fragments exported here). Stateless; every method runs in the caller's `em`.
 */
@Injectable()
export class UserQueries {
  /**
   * Fragment, a boolean SQL expression: the user whose id is the SQL expression `userIdExpr` exists and is
   * active (a deactivated user's credentials stop). Expects nothing but that expression; names alias `u`.
   */
  userIsActive(userIdExpr: string): SqlFragment {
    return sqlFragment(
      `coalesce((SELECT u.is_active FROM user_account u WHERE u.id = ${userIdExpr}), false)`,
    );
  }

  /** Whether a user with this e-mail address exists (case-insensitive). One statement, no lock. */
  emailTaken(em: EntityManager, email: string): Promise<boolean> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:e)', { e: email })
      .getExists();
  }

  /** The active user with this e-mail address (case-insensitive, `email` already trimmed); null when none. */
  activeByEmail(em: EntityManager, email: string): Promise<User | null> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:e) AND u.is_active', { e: email })
      .getOne();
  }

  /** Ids and e-mail addresses of the users with these ids (`ids` non-empty, distinct). One statement. */
  emailsByIds(em: EntityManager, ids: readonly number[]): Promise<Pick<User, 'id' | 'email'>[]> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .select(['u.id', 'u.email'])
      .where('u.id IN (:...ids)', { ids })
      .getMany();
  }

  /**
   * A page of users (by id) whose row `u` satisfies `condition` (a fragment of the calling context, with the
   * named parameters `params`), with the total, in one statement.
   * @throws NotFound "Invalid page." past the last page
   */
  pageWhere(
    em: EntityManager,
    condition: SqlFragment,
    params: ObjectLiteral,
    page: PageRequest,
  ): Promise<Paginated<User>> {
    const qb = em.getRepository(User).createQueryBuilder('u').where(condition, params).orderBy('u.id', 'ASC');
    return paginateRows(qb, page, (rows) => rows);
  }

  /** The user with id `id` whose row `u` satisfies `condition` (see {@link pageWhere}); null when none. */
  findWhere(
    em: EntityManager,
    id: number,
    condition: SqlFragment,
    params: ObjectLiteral,
  ): Promise<User | null> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .where(condition, params)
      .andWhere('u.id = :userId', { userId: id })
      .getOne();
  }

  /** The user with this e-mail address (case-insensitive, as given); null when none. No lock. */
  byEmail(em: EntityManager, email: string): Promise<User | null> {
    return em
      .getRepository(User)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }
}
