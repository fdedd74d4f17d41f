# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# cpu-heavycalc: mean heavycalc_ms with its CI
set terminal svg size 800,269 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cpu-heavycalc-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cpu-heavycalc: mean heavycalc_ms with its CI' at screen 0.5, screen 0.9257 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.8291 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.8291 noenhanced
set label 93 '●' at screen 0.0868, screen 0.8291 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.8291 noenhanced
set label 95 '●' at screen 0.1633, screen 0.8291 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.8291 noenhanced
set lmargin at screen 0.2662
set rmargin at screen 0.9700
set tmargin at screen 0.7623
set bmargin at screen 0.2229
set yrange [5.6:-0.6]
set ytics ('bun / worker / workers=4' 0, 'deno / worker / workers=4' 1, 'bun / worker / workers=2' 2, 'deno / worker / workers=2' 3, 'node / worker / workers=4' 4, 'node / worker / workers=2' 5) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'heavycalc_ms (ms)' noenhanced
set xrange [0:1064.68]
set arrow 1 from 101.352, graph 0 to 101.352, graph 1 nohead back lc rgb '#888888' dt 2
plot 'cpu-heavycalc-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'cpu-heavycalc-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'cpu-heavycalc-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'cpu-heavycalc-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:33] { unset arrow i }
do for [i=200:206] { unset label i }
unset multiplot
unset output

# cpu-heavycalc: heavycalc_ms of every run
set terminal svg size 800,269 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cpu-heavycalc-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cpu-heavycalc: heavycalc_ms of every run' at screen 0.5, screen 0.9257 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.8291 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.8291 noenhanced
set label 93 '●' at screen 0.0868, screen 0.8291 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.8291 noenhanced
set label 95 '●' at screen 0.1633, screen 0.8291 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.8291 noenhanced
set label 97 '|' at screen 0.2398, screen 0.8291 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.2623, screen 0.8291 noenhanced
set lmargin at screen 0.2662
set rmargin at screen 0.8800
set tmargin at screen 0.7623
set bmargin at screen 0.2229
set yrange [5.6:-0.6]
set ytics ('bun / worker / workers=4' 0, 'deno / worker / workers=4' 1, 'bun / worker / workers=2' 2, 'deno / worker / workers=2' 3, 'node / worker / workers=4' 4, 'node / worker / workers=2' 5) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'heavycalc_ms (ms)' noenhanced
set xrange [0:1062.88]
plot 'cpu-heavycalc-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'cpu-heavycalc-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'cpu-heavycalc-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:16] { unset label i }
unset label 2
unset multiplot
unset output

# cpu-heavycalc: mean heavycalc_ms against workers
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
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
plot 'cpu-heavycalc-scaling-workers.dat' index 0 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 5 dt 1 lc rgb '#e69f00' title 'bun / worker', \
     'cpu-heavycalc-scaling-workers.dat' index 1 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 6 dt 2 lc rgb '#0072b2' title 'deno / worker', \
     'cpu-heavycalc-scaling-workers.dat' index 2 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 7 dt 3 lc rgb '#009e73' title 'node / worker'
unset output

# http-hello: mean requests per second with its CI
set terminal svg size 800,203 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'http-hello-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'http-hello: mean requests per second with its CI' at screen 0.5, screen 0.9016 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7736 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 92 'deno' at screen 0.0425, screen 0.7736 noenhanced
set label 93 '●' at screen 0.0965, screen 0.7736 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 94 'bun' at screen 0.1190, screen 0.7736 noenhanced
set label 95 '●' at screen 0.1633, screen 0.7736 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.7736 noenhanced
set lmargin at screen 0.1883
set rmargin at screen 0.9700
set tmargin at screen 0.6850
set bmargin at screen 0.2953
set yrange [2.6:-0.6]
set ytics ('deno / sequential' 0, 'bun / sequential' 1, 'node / sequential' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Requests per second (req/s)' noenhanced
set xrange [0:44939.4]
set arrow 1 from 41556, graph 0 to 41556, graph 1 nohead back lc rgb '#888888' dt 2
plot 'http-hello-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'http-hello-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'http-hello-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'http-hello-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:27] { unset arrow i }
do for [i=200:203] { unset label i }
unset multiplot
unset output

# http-hello: requests per second of every run
set terminal svg size 800,203 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'http-hello-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'http-hello: requests per second of every run' at screen 0.5, screen 0.9016 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7736 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 92 'deno' at screen 0.0425, screen 0.7736 noenhanced
set label 93 '●' at screen 0.0965, screen 0.7736 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 94 'bun' at screen 0.1190, screen 0.7736 noenhanced
set label 95 '●' at screen 0.1633, screen 0.7736 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.7736 noenhanced
set label 97 '|' at screen 0.2398, screen 0.7736 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.2623, screen 0.7736 noenhanced
set label 99 '✗' at screen 0.3163, screen 0.7736 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 100 'failed runs (no value)' at screen 0.3388, screen 0.7736 noenhanced
set lmargin at screen 0.1883
set rmargin at screen 0.8800
set tmargin at screen 0.6850
set bmargin at screen 0.2953
set yrange [2.6:-0.6]
set ytics ('deno / sequential' 0, 'bun / sequential' 1, 'node / sequential' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Requests per second (req/s)' noenhanced
set xrange [0:44824]
set label 12 '✗ 1 failed' at graph 1.01, first 2 left tc rgb '#d55e00' noenhanced
plot 'http-hello-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'http-hello-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'http-hello-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:13] { unset label i }
unset label 2
unset multiplot
unset output

# http-hello: latency by percentile (mean of runs)
set terminal svg size 800,366 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'http-hello-latency.svg'
reset
set datafile missing '?'
set multiplot
set label 90 'http-hello: latency by percentile (mean of runs)' at screen 0.5, screen 0.9454 center noenhanced font sprintf(',%g', 15 * rd_fs)
set lmargin at screen 0.10
set rmargin at screen 0.7468
set tmargin at screen 0.8251
set bmargin at screen 0.2295
set logscale x
set xrange [1.5384615384615383:129.99999999999989]
set xtics ('p50' 2, 'p75' 4, 'p90' 10.000000000000002, 'p99' 99.999999999999915)
unset logscale y
set yrange [0:11.477]
set ylabel 'latency (ms)' noenhanced
set grid xtics ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key at screen 0.7668, screen 0.8251 left top Left reverse noenhanced
set xlabel 'percentile'
plot 'http-hello-latency.dat' index 0 using 1:3 with linespoints lw 2 pt 5 ps 1 dt 1 lc rgb '#0072b2' title 'deno / sequential', \
     'http-hello-latency.dat' index 1 using 1:3 with linespoints lw 2 pt 7 ps 1 dt 1 lc rgb '#e69f00' title 'bun / sequential', \
     'http-hello-latency.dat' index 2 using 1:3 with linespoints lw 2 pt 9 ps 1 dt 1 lc rgb '#009e73' title 'node / sequential'
unset label 2
unset multiplot
unset output

# cold-start: mean wall time with its CI
set terminal svg size 800,225 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cold-start-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cold-start: mean wall time with its CI' at screen 0.5, screen 0.9112 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7957 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.7957 noenhanced
set label 93 '●' at screen 0.0868, screen 0.7957 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.7957 noenhanced
set label 95 '●' at screen 0.1633, screen 0.7957 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.7957 noenhanced
set lmargin at screen 0.1785
set rmargin at screen 0.9700
set tmargin at screen 0.7158
set bmargin at screen 0.2664
set yrange [3.6:-0.6]
set ytics ('bun' 0, 'deno' 1, 'node / --jitless' 2, 'node' 3) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:45.4154]
set arrow 1 from 22.175000000000001, graph 0 to 22.175000000000001, graph 1 nohead back lc rgb '#888888' dt 2
plot 'cold-start-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'cold-start-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'cold-start-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'cold-start-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:29] { unset arrow i }
do for [i=200:204] { unset label i }
unset multiplot
unset output

# cold-start: wall time of every run
set terminal svg size 800,225 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cold-start-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cold-start: wall time of every run' at screen 0.5, screen 0.9112 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7957 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.7957 noenhanced
set label 93 '●' at screen 0.0868, screen 0.7957 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.7957 noenhanced
set label 95 '●' at screen 0.1633, screen 0.7957 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.7957 noenhanced
set label 97 '|' at screen 0.2398, screen 0.7957 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.2623, screen 0.7957 noenhanced
set lmargin at screen 0.1785
set rmargin at screen 0.8800
set tmargin at screen 0.7158
set bmargin at screen 0.2664
set yrange [3.6:-0.6]
set ytics ('bun' 0, 'deno' 1, 'node / --jitless' 2, 'node' 3) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:47.476]
plot 'cold-start-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'cold-start-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'cold-start-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:14] { unset label i }
unset label 2
unset multiplot
unset output
