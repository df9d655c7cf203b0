/** Names of the queues (architecture.md "Processes"). */
export const QUEUES = {
  scheduler: 'scheduler',
  mail: 'mail',
  invoices: 'invoices',
  exports: 'exports',
  shredder: 'shredder',
  tickets: 'tickets',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * Queues whose jobs run {@link AsyncTask} rows (one task per job; the job id is the task id). The `invoices`
 * queue is not one: its jobs render the PDF of an invoice row (`invoices/invoice-pdf.processor.ts`).
 */
export const TASK_QUEUES: readonly QueueName[] = [QUEUES.exports, QUEUES.shredder, QUEUES.tickets];
