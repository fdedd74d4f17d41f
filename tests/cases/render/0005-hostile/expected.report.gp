# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# ../cpu/`touch PWNED3`: mean heavycalc_ms with its CI
set terminal svg size 800,269 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cpu_touch_PWNED3-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 '../cpu/`touch PWNED3`: mean heavycalc_ms with its CI' at screen 0.5, screen 0.9257 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.8291 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 92 '<script>alert(1)</script>bun' at screen 0.0425, screen 0.8291 noenhanced
set label 93 '●' at screen 0.3305, screen 0.8291 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 94 '=1+1' at screen 0.3530, screen 0.8291 noenhanced
set label 95 '●' at screen 0.4070, screen 0.8291 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.8291 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.9700
set tmargin at screen 0.7623
set bmargin at screen 0.2229
set yrange [5.6:-0.6]
set ytics ('<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 0, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 1, '<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 2, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 3, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 4, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 5) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'heavycalc_ms (ms)' noenhanced
set xrange [0:1064.68]
set arrow 1 from 101.352, graph 0 to 101.352, graph 1 nohead back lc rgb '#888888' dt 2
plot 'cpu_touch_PWNED3-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'cpu_touch_PWNED3-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'cpu_touch_PWNED3-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'cpu_touch_PWNED3-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:33] { unset arrow i }
do for [i=200:206] { unset label i }
unset multiplot
unset output

# ../cpu/`touch PWNED3`: heavycalc_ms of every run
set terminal svg size 800,269 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cpu_touch_PWNED3-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 '../cpu/`touch PWNED3`: heavycalc_ms of every run' at screen 0.5, screen 0.9257 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.8291 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 92 '<script>alert(1)</script>bun' at screen 0.0425, screen 0.8291 noenhanced
set label 93 '●' at screen 0.3305, screen 0.8291 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 94 '=1+1' at screen 0.3530, screen 0.8291 noenhanced
set label 95 '●' at screen 0.4070, screen 0.8291 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.8291 noenhanced
set label 97 '|' at screen 0.8638, screen 0.8291 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.8862, screen 0.8291 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.8800
set tmargin at screen 0.7623
set bmargin at screen 0.2229
set yrange [5.6:-0.6]
set ytics ('<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 0, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 1, '<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 2, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 3, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 4, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 5) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'heavycalc_ms (ms)' noenhanced
set xrange [0:1062.88]
plot 'cpu_touch_PWNED3-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'cpu_touch_PWNED3-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'cpu_touch_PWNED3-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:16] { unset label i }
unset label 2
unset multiplot
unset output

# ../cpu/`touch PWNED3`: mean heavycalc_ms against work`touch PWNED7`|ers<b>'
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.svg'
reset
set datafile missing '?'
set title '../cpu/`touch PWNED3`: mean heavycalc_ms against work`touch PWNED7`|ers<b>'."\047".'' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xlabel 'work`touch PWNED7`|ers<b>'."\047".'' noenhanced
set xtics (2, 4)
set offsets graph 0.05, graph 0.05, 0, 0
set yrange [0:*]
set key outside right top noenhanced
plot 'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 0 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 5 dt 1 lc rgb '#d55e00' title '<script>alert(1)</script>bun / ../../etc/passwd | cell break', \
     'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 1 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 6 dt 2 lc rgb '#cc79a7' title '=1+1 / ../../etc/passwd | cell break', \
     'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 2 using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt 7 dt 3 lc rgb '#56b4e9' title '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break'
unset output

# <img src=http://evil.example/y.png>: mean requests per second with its CI
set terminal svg size 800,203 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'img_src_http_evil.example_y.png-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 '<img src=http://evil.example/y.png>: mean requests per second with its CI' at screen 0.5, screen 0.9016 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7736 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 92 '=1+1' at screen 0.0425, screen 0.7736 noenhanced
set label 93 '●' at screen 0.0965, screen 0.7736 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 94 '<script>alert(1)</script>bun' at screen 0.1190, screen 0.7736 noenhanced
set label 95 '●' at screen 0.4070, screen 0.7736 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.7736 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.9700
set tmargin at screen 0.6850
set bmargin at screen 0.2953
set yrange [2.6:-0.6]
set ytics ('=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 0, '<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Requests per second (req/s)' noenhanced
set xrange [0:44939.4]
set arrow 1 from 41556, graph 0 to 41556, graph 1 nohead back lc rgb '#888888' dt 2
plot 'img_src_http_evil.example_y.png-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'img_src_http_evil.example_y.png-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'img_src_http_evil.example_y.png-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'img_src_http_evil.example_y.png-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:27] { unset arrow i }
do for [i=200:203] { unset label i }
unset multiplot
unset output

# <img src=http://evil.example/y.png>: requests per second of every run
set terminal svg size 800,203 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'img_src_http_evil.example_y.png-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 '<img src=http://evil.example/y.png>: requests per second of every run' at screen 0.5, screen 0.9016 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7736 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 92 '=1+1' at screen 0.0425, screen 0.7736 noenhanced
set label 93 '●' at screen 0.0965, screen 0.7736 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 94 '<script>alert(1)</script>bun' at screen 0.1190, screen 0.7736 noenhanced
set label 95 '●' at screen 0.4070, screen 0.7736 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.7736 noenhanced
set label 97 '|' at screen 0.8638, screen 0.7736 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.8862, screen 0.7736 noenhanced
set label 99 '✗' at screen 0.9403, screen 0.7736 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 100 'failed runs (no value)' at screen 0.9627, screen 0.7736 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.8800
set tmargin at screen 0.6850
set bmargin at screen 0.2953
set yrange [2.6:-0.6]
set ytics ('=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 0, '<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 2) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Requests per second (req/s)' noenhanced
set xrange [0:44824]
set label 12 '✗ 1 failed' at graph 1.01, first 2 left tc rgb '#d55e00' noenhanced
plot 'img_src_http_evil.example_y.png-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'img_src_http_evil.example_y.png-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'img_src_http_evil.example_y.png-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:13] { unset label i }
unset label 2
unset multiplot
unset output

# <img src=http://evil.example/y.png>: latency by percentile (mean of runs)
set terminal svg size 800,366 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'img_src_http_evil.example_y.png-latency.svg'
reset
set datafile missing '?'
set multiplot
set label 90 '<img src=http://evil.example/y.png>: latency by percentile (mean of runs)' at screen 0.5, screen 0.9454 center noenhanced font sprintf(',%g', 15 * rd_fs)
set lmargin at screen 0.10
set rmargin at screen 0.4500
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
set key at screen 0.4700, screen 0.8251 left top Left reverse noenhanced
set xlabel 'percentile'
plot 'img_src_http_evil.example_y.png-latency.dat' index 0 using 1:3 with linespoints lw 2 pt 5 ps 1 dt 1 lc rgb '#cc79a7' title '=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)', \
     'img_src_http_evil.example_y.png-latency.dat' index 1 using 1:3 with linespoints lw 2 pt 7 ps 1 dt 1 lc rgb '#d55e00' title '<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)', \
     'img_src_http_evil.example_y.png-latency.dat' index 2 using 1:3 with linespoints lw 2 pt 9 ps 1 dt 1 lc rgb '#56b4e9' title '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)'
unset label 2
unset multiplot
unset output

# cold-start'; system('touch PWNED4'): mean wall time with its CI
set terminal svg size 800,225 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cold-start_system_touch_PWNED4-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cold-start'."\047".'; system('."\047".'touch PWNED4'."\047".'): mean wall time with its CI' at screen 0.5, screen 0.9112 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7957 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 92 '<script>alert(1)</script>bun' at screen 0.0425, screen 0.7957 noenhanced
set label 93 '●' at screen 0.3305, screen 0.7957 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 94 '=1+1' at screen 0.3530, screen 0.7957 noenhanced
set label 95 '●' at screen 0.4070, screen 0.7957 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.7957 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.9700
set tmargin at screen 0.7158
set bmargin at screen 0.2664
set yrange [3.6:-0.6]
set ytics ('<script>alert(1)</script>bun' 0, '=1+1' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / --jitless' 2, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' 3) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:45.4154]
set arrow 1 from 22.175000000000001, graph 0 to 22.175000000000001, graph 1 nohead back lc rgb '#888888' dt 2
plot 'cold-start_system_touch_PWNED4-means.dat' index 0 using 1:($6 == 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'cold-start_system_touch_PWNED4-means.dat' index 0 using 1:($6 > 0 && valid(3) ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable, \
     'cold-start_system_touch_PWNED4-means.dat' index 0 using 1:($6 == 0 && !valid(3) ? $2 : NaN):5 with points pt 7 ps 1.1 lc rgb variable, \
     'cold-start_system_touch_PWNED4-means.dat' index 0 using 1:($6 > 0 && !valid(3) ? $2 : NaN):5 with points pt 6 ps 1.1 lc rgb variable
unset object 1
unset arrow 1
unset label 2
do for [i=20:29] { unset arrow i }
do for [i=200:204] { unset label i }
unset multiplot
unset output

# cold-start'; system('touch PWNED4'): wall time of every run
set terminal svg size 800,225 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'cold-start_system_touch_PWNED4-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'cold-start'."\047".'; system('."\047".'touch PWNED4'."\047".'): wall time of every run' at screen 0.5, screen 0.9112 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '●' at screen 0.0200, screen 0.7957 tc rgb '#d55e00' font sprintf(',%g', 16 * rd_fs)
set label 92 '<script>alert(1)</script>bun' at screen 0.0425, screen 0.7957 noenhanced
set label 93 '●' at screen 0.3305, screen 0.7957 tc rgb '#cc79a7' font sprintf(',%g', 16 * rd_fs)
set label 94 '=1+1' at screen 0.3530, screen 0.7957 noenhanced
set label 95 '●' at screen 0.4070, screen 0.7957 tc rgb '#56b4e9' font sprintf(',%g', 16 * rd_fs)
set label 96 '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' at screen 0.4295, screen 0.7957 noenhanced
set label 97 '|' at screen 0.8638, screen 0.7957 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 98 'mean' at screen 0.8862, screen 0.7957 noenhanced
set lmargin at screen 0.5500
set rmargin at screen 0.8800
set tmargin at screen 0.7158
set bmargin at screen 0.2664
set yrange [3.6:-0.6]
set ytics ('<script>alert(1)</script>bun' 0, '=1+1' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / --jitless' 2, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' 3) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:47.476]
plot 'cold-start_system_touch_PWNED4-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'cold-start_system_touch_PWNED4-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'cold-start_system_touch_PWNED4-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:14] { unset label i }
unset label 2
unset multiplot
unset output
