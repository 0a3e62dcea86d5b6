/**
 * `@assetloom/core/queue` — the durable task queue (decision 0006): claims with leases, progress
 * events, outcomes and takeovers; running one claimed task through the pipeline (`runClaimedTask`);
 * the shared event poller that feeds every progress stream of a process; and `followTaskEvents`,
 * a task's events as an async iterable (what the progress socket and the SDK's stream read).
 *
 * @packageDocumentation
 */
export {
  createSharedEventPoller,
  type PolledEvents,
  type SharedEventPoller,
  type SharedEventPollerOptions,
  type TaskEventSource,
} from '../event-poller.js';
export {
  type FollowTaskEventsOptions,
  followTaskEvents,
  type TaskStreamItem,
} from '../progress-stream.js';
export {
  type ClaimedTask,
  createTaskQueue,
  isTerminalEvent,
  type ProgressPatch,
  type QueueEvent,
  TaskLeaseLostError,
  type TaskOutcome,
  type TaskQueue,
  type TaskQueueOptions,
  terminalEventFor,
} from '../queue.js';
export {
  type ClaimedTaskResult,
  type RunClaimedTaskOptions,
  runClaimedTask,
  type StoredAssetView,
  type TaskEventUpdate,
  TaskStoppedError,
  taskUpdateFor,
  toAssetRecord,
  toAssetView,
} from '../task-run.js';
