/** The shared `UPDATE`/`DELETE ... RETURNING` helper, now in {@link ./returning.queries} (the query layer). */
export { returning } from './returning.queries';
