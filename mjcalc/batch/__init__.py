"""Batch files: read records (one-line notation, CSV, JSONL, YAML), score them in order on one or more
processes, and write one output record per input record — streaming, so memory stays flat on a file of
any length.

Nothing a file holds stops the run or loses a record: the input is decoded line by line (a byte-order mark
picks UTF-8, UTF-16 or UTF-32), so a line that is not valid text, a CSV row with a stray quote, a JSON
record nested too deep or a YAML entry that does not parse is an error record with its line number, and the
reading goes on with the next record. A bug met while scoring one record is that record's error record
(kind ``internal``), never the end of the run.

Reading (lines.py, compiled: every line of a batch goes through it; readers.py), the work of one process
(work.py), a run on one or more processes (run.py, parallel.py, forked.py), writing (writers.py), and batches
beyond one machine (dask.py).
"""

