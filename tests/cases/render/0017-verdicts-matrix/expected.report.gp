# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# heavy: mean wall time with the verdict's simultaneous interval
set terminal svg size 800,714 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'heavy-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'heavy: mean wall time with the verdict'."\047".'s simultaneous interval' at screen 0.5, screen 0.9720 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.9355 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.9355 noenhanced
set label 93 '●' at screen 0.0868, screen 0.9355 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.9355 noenhanced
set label 95 '●' at screen 0.1633, screen 0.9355 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.9355 noenhanced
set label 97 '█' at screen 0.2398, screen 0.9355 tc rgb '#d0d0d0' font sprintf(',%g', 16 * rd_fs)
set label 98 'within 5 % of the best' at screen 0.2623, screen 0.9355 noenhanced
set lmargin at screen 0.1785
set rmargin at screen 0.9700
set tmargin at screen 0.8767
set bmargin at screen 0.5807
set yrange [8.6:-0.6]
set ytics ('bun / workers=4' 0, 'deno / workers=4' 1, 'bun / workers=2' 2, 'node / workers=4' 3, 'deno / workers=2' 4, 'node / workers=2' 5, 'bun / workers=1' 6, 'deno / workers=1' 7, 'node / workers=1' 8) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x ''
unset xlabel
set label 2 'mechanism: worker' at screen 0.1785, screen 0.8865 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:365.77]
set object 1 rect from 95, graph 0 to 105, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back lc rgb '#888888' dt 2
plot 'heavy-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'heavy-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:39] { unset arrow i }
do for [i=200:209] { unset label i }
do for [i=90:140] { unset label i }
set lmargin at screen 0.1785
set rmargin at screen 0.9700
set tmargin at screen 0.5359
set bmargin at screen 0.2399
set yrange [8.6:-0.6]
set ytics ('bun / workers=4' 0, 'deno / workers=4' 1, 'bun / workers=2' 2, 'node / workers=4' 3, 'deno / workers=2' 4, 'node / workers=2' 5, 'bun / workers=1' 6, 'deno / workers=1' 7, 'node / workers=1' 8) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x ''
unset xlabel
set label 2 'mechanism: process' at screen 0.1785, screen 0.5457 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:365.77]
set object 1 rect from 95, graph 0 to 105, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back lc rgb '#888888' dt 2
plot 'heavy-means.dat' index 1 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 1 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 1 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'heavy-means.dat' index 1 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:39] { unset arrow i }
do for [i=200:209] { unset label i }
do for [i=90:140] { unset label i }
set lmargin at screen 0.1785
set rmargin at screen 0.9700
set tmargin at screen 0.1951
set bmargin at screen 0.0841
set yrange [2.6:-0.6]
set ytics ('bun / workers=1' 0, 'deno / workers=1' 1, 'node / workers=1' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set label 2 'mechanism: sequential' at screen 0.1785, screen 0.2049 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:365.77]
set object 1 rect from 95, graph 0 to 105, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back lc rgb '#888888' dt 2
plot 'heavy-means.dat' index 2 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 2 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'heavy-means.dat' index 2 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'heavy-means.dat' index 2 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:27] { unset arrow i }
do for [i=200:203] { unset label i }
unset multiplot
unset output

# heavy: wall time of every run
set terminal svg size 800,714 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'heavy-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'heavy: wall time of every run' at screen 0.5, screen 0.9720 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.9355 tc rgb '#e69f00' font sprintf(',%g', 16 * rd_fs)
set label 92 'bun' at screen 0.0425, screen 0.9355 noenhanced
set label 93 '●' at screen 0.0868, screen 0.9355 tc rgb '#0072b2' font sprintf(',%g', 16 * rd_fs)
set label 94 'deno' at screen 0.1093, screen 0.9355 noenhanced
set label 95 '●' at screen 0.1633, screen 0.9355 tc rgb '#009e73' font sprintf(',%g', 16 * rd_fs)
set label 96 'node' at screen 0.1857, screen 0.9355 noenhanced
set label 97 '|' at screen 0.2398, screen 0.9355 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.2623, screen 0.9355 noenhanced
set lmargin at screen 0.1785
set rmargin at screen 0.8800
set tmargin at screen 0.8767
set bmargin at screen 0.5807
set yrange [8.6:-0.6]
set ytics ('bun / workers=4' 0, 'deno / workers=4' 1, 'bun / workers=2' 2, 'node / workers=4' 3, 'deno / workers=2' 4, 'node / workers=2' 5, 'bun / workers=1' 6, 'deno / workers=1' 7, 'node / workers=1' 8) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x ''
unset xlabel
set label 2 'mechanism: worker' at screen 0.1785, screen 0.8865 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:364.208]
plot 'heavy-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:19] { unset label i }
unset label 2
do for [i=90:140] { unset label i }
set lmargin at screen 0.1785
set rmargin at screen 0.8800
set tmargin at screen 0.5359
set bmargin at screen 0.2399
set yrange [8.6:-0.6]
set ytics ('bun / workers=4' 0, 'deno / workers=4' 1, 'bun / workers=2' 2, 'node / workers=4' 3, 'deno / workers=2' 4, 'node / workers=2' 5, 'bun / workers=1' 6, 'deno / workers=1' 7, 'node / workers=1' 8) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x ''
unset xlabel
set label 2 'mechanism: process' at screen 0.1785, screen 0.5457 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:364.208]
plot 'heavy-runs.dat' index 2 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 2 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 3 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:19] { unset label i }
unset label 2
do for [i=90:140] { unset label i }
set lmargin at screen 0.1785
set rmargin at screen 0.8800
set tmargin at screen 0.1951
set bmargin at screen 0.0841
set yrange [2.6:-0.6]
set ytics ('bun / workers=1' 0, 'deno / workers=1' 1, 'node / workers=1' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set label 2 'mechanism: sequential' at screen 0.1785, screen 0.2049 left noenhanced font sprintf(',%g', 12 * rd_fs)
set xrange [0:364.208]
plot 'heavy-runs.dat' index 4 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 4 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'heavy-runs.dat' index 5 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:13] { unset label i }
unset label 2
unset multiplot
unset output

# heavy: mean wall time against workers
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'heavy-scaling-workers.svg'
reset
set datafile missing '?'
set title 'heavy: mean wall time against workers' noenhanced
set ylabel 'Wall time (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xlabel 'workers' noenhanced
set xtics (1, 2, 4)
set offsets graph 0.05, graph 0.05, 0, 0
set yrange [0:*]
set key outside right top noenhanced
plot 'heavy-scaling-workers.dat' index 0 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 5 dt 1 lc rgb '#e69f00' title 'bun / process', \
     'heavy-scaling-workers.dat' index 1 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 6 dt 2 lc rgb '#0072b2' title 'deno / process', \
     'heavy-scaling-workers.dat' index 2 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 7 dt 3 lc rgb '#009e73' title 'node / process', \
     'heavy-scaling-workers.dat' index 3 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 8 dt 4 lc rgb '#e69f00' title 'bun / sequential', \
     'heavy-scaling-workers.dat' index 4 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 9 dt 5 lc rgb '#0072b2' title 'deno / sequential', \
     'heavy-scaling-workers.dat' index 5 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 10 dt 1 lc rgb '#009e73' title 'node / sequential', \
     'heavy-scaling-workers.dat' index 6 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 11 dt 2 lc rgb '#e69f00' title 'bun / worker', \
     'heavy-scaling-workers.dat' index 7 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 12 dt 3 lc rgb '#0072b2' title 'deno / worker', \
     'heavy-scaling-workers.dat' index 8 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 5 dt 4 lc rgb '#009e73' title 'node / worker'
unset output
