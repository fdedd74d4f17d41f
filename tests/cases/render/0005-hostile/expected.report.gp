# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# ../cpu/`touch PWNED3`: mean heavycalc_ms with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cpu_touch_PWNED3-means.svg'
reset
set datafile missing '?'
set title '../cpu/`touch PWNED3`: mean heavycalc_ms with 95 % CI' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 0, '<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 1, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 2, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 3, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 4, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 5) rotate by 30 right noenhanced
set xrange [-0.7:5.7]
set lmargin 48
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'cpu_touch_PWNED3-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'cpu_touch_PWNED3-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# ../cpu/`touch PWNED3`: heavycalc_ms of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cpu_touch_PWNED3-runs.svg'
reset
set datafile missing '?'
set title '../cpu/`touch PWNED3`: heavycalc_ms of every run' noenhanced
set ylabel 'heavycalc_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 0, '<script>alert(1)</script>bun / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 1, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 2, '=1+1 / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 3, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=2' 4, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break / work`touch PWNED7`|ers<b>'."\047".'=4' 5) rotate by 30 right noenhanced
set xrange [-0.7:5.7]
set lmargin 48
set key off
plot 'cpu_touch_PWNED3-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'cpu_touch_PWNED3-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output

# ../cpu/`touch PWNED3`: mean heavycalc_ms against work`touch PWNED7`|ers<b>'
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
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
plot 'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 5 dt 1 lc rgb '#8e44ad' title '<script>alert(1)</script>bun / ../../etc/passwd | cell break', \
     'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 1 using 1:2:3:4 with yerrorlines lw 2 pt 6 dt 2 lc rgb '#c0392b' title '=1+1 / ../../etc/passwd | cell break', \
     'cpu_touch_PWNED3-scaling-work_touch_PWNED7_ers_b.dat' index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 dt 3 lc rgb '#16a085' title '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / ../../etc/passwd | cell break'
unset output

# <img src=http://evil.example/y.png>: mean rps with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'img_src_http_evil.example_y.png-means.svg'
reset
set datafile missing '?'
set title '<img src=http://evil.example/y.png>: mean rps with 95 % CI' noenhanced
set ylabel 'rps (req/s)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 0, '=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 2) rotate by 30 right noenhanced
set xrange [-0.7:2.7]
set lmargin 48
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'img_src_http_evil.example_y.png-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'img_src_http_evil.example_y.png-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# <img src=http://evil.example/y.png>: rps of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'img_src_http_evil.example_y.png-runs.svg'
reset
set datafile missing '?'
set title '<img src=http://evil.example/y.png>: rps of every run' noenhanced
set ylabel 'rps (req/s)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 0, '=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)' 2) rotate by 30 right noenhanced
set xrange [-0.7:2.7]
set lmargin 48
set key off
plot 'img_src_http_evil.example_y.png-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'img_src_http_evil.example_y.png-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output

# <img src=http://evil.example/y.png>: latency percentiles (mean of runs)
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'img_src_http_evil.example_y.png-latency.svg'
reset
set datafile missing '?'
set title '<img src=http://evil.example/y.png>: latency percentiles (mean of runs)' noenhanced
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
plot 'img_src_http_evil.example_y.png-latency.dat' index 0 using 1:3 with linespoints lw 2 pt 5 lc rgb '#8e44ad' title '<script>alert(1)</script>bun / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)', \
     'img_src_http_evil.example_y.png-latency.dat' index 1 using 1:3 with linespoints lw 2 pt 6 lc rgb '#c0392b' title '=1+1 / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)', \
     'img_src_http_evil.example_y.png-latency.dat' index 2 using 1:3 with linespoints lw 2 pt 7 lc rgb '#16a085' title '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / @rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)'
unset output

# cold-start'; system('touch PWNED4'): mean wall_ms with 95 % CI
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cold-start_system_touch_PWNED4-means.svg'
reset
set datafile missing '?'
set title 'cold-start'."\047".'; system('."\047".'touch PWNED4'."\047".'): mean wall_ms with 95 % CI' noenhanced
set ylabel 'wall_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun' 0, '=1+1' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' 2, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / --jitless' 3) rotate by 30 right noenhanced
set xrange [-0.7:3.7]
set lmargin 47
set key off
set yrange [0:*]
set boxwidth 0.6
set style fill solid 0.7 border lc rgb '#333333'
plot 'cold-start_system_touch_PWNED4-means.dat' using 1:2:5 with boxes lc rgb variable, \
     'cold-start_system_touch_PWNED4-means.dat' using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5
unset output

# cold-start'; system('touch PWNED4'): wall_ms of every run
set terminal svg size 800,450 dynamic noenhanced font 'sans,13' background '#ffffff'
set output 'cold-start_system_touch_PWNED4-runs.svg'
reset
set datafile missing '?'
set title 'cold-start'."\047".'; system('."\047".'touch PWNED4'."\047".'): wall_ms of every run' noenhanced
set ylabel 'wall_ms (ms)' noenhanced
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xtics ('<script>alert(1)</script>bun' 0, '=1+1' 1, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".'' 2, '`touch PWNED` x'."\047".'; system('."\047".'touch PWNED2'."\047".'); '."\047".' / --jitless' 3) rotate by 30 right noenhanced
set xrange [-0.7:3.7]
set lmargin 47
set key off
plot 'cold-start_system_touch_PWNED4-runs.dat' index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \
     'cold-start_system_touch_PWNED4-runs.dat' index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'
unset output
