/**
 * A piece of SQL (a condition, a derived table) that one context's query layer owns and exports by name, for
 * another context's query layer to splice into its own statement, so a cross-context read stays one statement
 * (the statement counts and `test/sql/*.sql` snapshots hold). Only `*.queries.ts` files create or splice them;
 * the owner documents the columns or aliases it expects and yields.
 */
export type SqlFragment = string & { readonly __sqlFragment: true };

/** Marks owner-written SQL text as a {@link SqlFragment}; never call it with user input (bind parameters instead). */
export function sqlFragment(text: string): SqlFragment {
  return text as SqlFragment;
}
