/** Names of the User Timing measures of a database import (DevTools, and the import bench's split of the time). */
export const READ_MEASURE = "tabcode import: waiting for the reader";
export const WRITE_MEASURE = "tabcode import: writing";
