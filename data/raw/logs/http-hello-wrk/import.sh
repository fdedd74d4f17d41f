#!/bin/sh
# Imports the wrk captures of this folder into data/raw/http-hello-wrk.jsonl
# (run from the repository root after a build). Warmups are stored as such.
set -eu
store=data/raw/http-hello-wrk.jsonl
dir=data/raw/logs/http-hello-wrk
collect=${COLLECT:-build/collect/rundown-collect}
rm -f "$store"
for rt in node deno bun; do
    "$collect" import -t wrk -w http-hello -l runtime=$rt -l mechanism=sequential \
        -l load=wrk -e env-5c1e0a01 --phase warmup -o "$store" "$dir/$rt-warmup.txt"
done
for n in 1 2 3 4 5; do
    for rt in node deno bun; do
        "$collect" import -t wrk -w http-hello -l runtime=$rt -l mechanism=sequential \
            -l load=wrk -e env-5c1e0a01 -o "$store" "$dir/$rt-$n.txt"
    done
done
