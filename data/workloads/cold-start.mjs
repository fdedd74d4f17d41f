// cold-start: study E's program. The runner measures the whole process
// (wall_ms, max_rss_kib); the program itself prints one line.
console.log("Hello World");
