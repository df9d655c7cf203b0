/**
 * SQL fragments over the users table for other contexts' queries (the auth context owns `user_account`;
 * architecture.md "Layout": others use the owner's services, ports or fragments like these).
 */

/** A boolean SQL expression: the user `userIdExpr` exists and is active (a deactivated user's credentials stop). */
export function userIsActiveSql(userIdExpr: string): string {
  return `coalesce((SELECT u.is_active FROM user_account u WHERE u.id = ${userIdExpr}), false)`;
}
