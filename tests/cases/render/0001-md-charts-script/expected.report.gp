# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# cpu-heavycalc: mean heavycalc_ms with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cpu-heavycalc-means.svg'
reset
set datafile missing '?'
set title 'cpu-heavycalc: mean heavycalc_ms with 95 % CI' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun / worker / workers=2' 0, 'bun / worker / workers=4' 1, 'deno / worker / workers=2' 2, 'deno / worker / workers=4' 3, 'node / worker / workers=2' 4, 'node / worker / workers=4' 5) rotate by 30 right noenhanced
set xrange [-0.7:5.7]
set lmargin 21
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'cpu-heavycalc-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'cpu-heavycalc-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# cpu-heavycalc: heavycalc_ms of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cpu-heavycalc-runs.svg'
reset
set datafile missing '?'
set title 'cpu-heavycalc: heavycalc_ms of every run' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun / worker / workers=2' 0, 'bun / worker / workers=4' 1, 'deno / worker / workers=2' 2, 'deno / worker / workers=4' 3, 'node / worker / workers=2' 4, 'node / worker / workers=4' 5) rotate by 30 right noenhanced
set xrange [-0.7:5.7]
set lmargin 21
set key off
plot 'cpu-heavycalc-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'cpu-heavycalc-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output

# cpu-heavycalc: mean heavycalc_ms against workers
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cpu-heavycalc-scaling-workers.svg'
reset
set datafile missing '?'
set title 'cpu-heavycalc: mean heavycalc_ms against workers' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xlabel 'workers' noenhanced
set xtics (2, 4)
set offsets graph 0.05, graph 0.05, 0, 0
set yrange [0:*]
set key outside right top noenhanced
plot 'cpu-heavycalc-scaling-workers.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 5 dt 1 lc rgb '#d9822b' title 'bun / worker', \
     'cpu-heavycalc-scaling-workers.dat' index 1 using 1:2:3:4 with yerrorlines lw 2 pt 6 dt 2 lc rgb '#2b6cb0' title 'deno / worker', \
     'cpu-heavycalc-scaling-workers.dat' index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 dt 3 lc rgb '#3c873a' title 'node / worker'
unset output

# http-hello: mean rps with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'http-hello-means.svg'
reset
set datafile missing '?'
set title 'http-hello: mean rps with 95 % CI' noenhanced
set ylabel 'rps (req/s)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun / sequential' 0, 'deno / sequential' 1, 'node / sequential' 2) rotate by 30 right noenhanced
set xrange [-0.7:2.7]
set lmargin 16
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'http-hello-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'http-hello-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# http-hello: rps of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'http-hello-runs.svg'
reset
set datafile missing '?'
set title 'http-hello: rps of every run' noenhanced
set ylabel 'rps (req/s)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun / sequential' 0, 'deno / sequential' 1, 'node / sequential' 2) rotate by 30 right noenhanced
set xrange [-0.7:2.7]
set lmargin 16
set key off
plot 'http-hello-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'http-hello-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output

# http-hello: latency percentiles (mean of runs)
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'http-hello-latency.svg'
reset
set datafile missing '?'
set title 'http-hello: latency percentiles (mean of runs)' noenhanced
set ylabel 'latency (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale x
set xrange [1.6:125]
set xtics ('p50' 2, 'p75' 4, 'p90' 10, 'p99' 100)
set xlabel 'percentile'
set yrange [0:*]
set key top left noenhanced
plot 'http-hello-latency.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#d9822b' title 'bun / sequential', \
     'http-hello-latency.dat' index 1 using 1:3 with linespoints lw 2 pt 6 lc rgb '#2b6cb0' title 'deno / sequential', \
     'http-hello-latency.dat' index 2 using 1:3 with linespoints lw 2 pt 7 lc rgb '#3c873a' title 'node / sequential'
unset output

# cold-start: mean wall_ms with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cold-start-means.svg'
reset
set datafile missing '?'
set title 'cold-start: mean wall_ms with 95 % CI' noenhanced
set ylabel 'wall_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun' 0, 'deno' 1, 'node' 2, 'node / --jitless' 3) rotate by 30 right noenhanced
set xrange [-0.7:3.7]
set lmargin 16
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'cold-start-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'cold-start-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# cold-start: wall_ms of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cold-start-runs.svg'
reset
set datafile missing '?'
set title 'cold-start: wall_ms of every run' noenhanced
set ylabel 'wall_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('bun' 0, 'deno' 1, 'node' 2, 'node / --jitless' 3) rotate by 30 right noenhanced
set xrange [-0.7:3.7]
set lmargin 16
set key off
plot 'cold-start-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'cold-start-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output
