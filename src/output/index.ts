// The output layer's API for commands: list writers, single records, raw JSON bodies, progress.
// Light at load time; the table code is imported only when a table is drawn.
export { createListWriter } from './list-writer';
export { writeRecord, writeJsonValue, writeEscapedText } from './record';
export { createProgress } from './progress';
export { BOOKING_COLUMNS } from './booking-columns';
export { drained } from './sink';
