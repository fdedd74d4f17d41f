# rundown charts. Re-run from this folder: gnuplot report.gp
set encoding utf8

# w: mean wall time with the verdict's simultaneous interval
set terminal svg size 800,181 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'w-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'w: mean wall time with the verdict'."\047".'s simultaneous interval' at screen 0.5, screen 0.8896 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '█' at screen 0.0200, screen 0.7461 tc rgb '#d0d0d0' font sprintf(',%g', 16 * rd_fs)
set label 92 'within 5 % of the best' at screen 0.0425, screen 0.7461 noenhanced
set lmargin at screen 0.1200
set rmargin at screen 0.9700
set tmargin at screen 0.6468
set bmargin at screen 0.3311
set yrange [1.6:-0.6]
set ytics ('cpu 50%%' 0, 'cpu 100%%' 1) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [-9.90909:37.9379]
set object 1 rect from 13.313664166859477, graph 0 to 14.715102500213108, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set arrow 1 from 14.014383333536292, graph 0 to 14.014383333536292, graph 1 nohead back lc rgb '#888888' dt 2
plot 'w-means.dat' index 0 using 1:($6 > 0 ? NaN : $2):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'w-means.dat' index 0 using 1:($6 > 0 ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable
unset object 1
unset arrow 1
unset label 2
unset multiplot
unset output

# w: wall time of every run
set terminal svg size 800,181 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'w-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'w: wall time of every run' at screen 0.5, screen 0.8896 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '|' at screen 0.0200, screen 0.7461 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 92 'mean' at screen 0.0425, screen 0.7461 noenhanced
set lmargin at screen 0.1200
set rmargin at screen 0.8800
set tmargin at screen 0.6468
set bmargin at screen 0.3311
set yrange [1.6:-0.6]
set ytics ('cpu 50%%' 0, 'cpu 100%%' 1) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:24.889]
plot 'w-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'w-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'w-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:12] { unset label i }
unset label 2
unset multiplot
unset output

# w2: mean wall time with the verdict's simultaneous interval
set terminal svg size 800,181 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'w2-means.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'w2: mean wall time with the verdict'."\047".'s simultaneous interval' at screen 0.5, screen 0.8896 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '█' at screen 0.0200, screen 0.7461 tc rgb '#d0d0d0' font sprintf(',%g', 16 * rd_fs)
set label 92 'within 5 % of the best' at screen 0.0425, screen 0.7461 noenhanced
set lmargin at screen 0.1200
set rmargin at screen 0.9700
set tmargin at screen 0.6468
set bmargin at screen 0.3311
set yrange [1.6:-0.6]
set ytics ('date +%%s' 0, 'sleep 0.01' 1) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [-72.1929:268.313]
set object 1 rect from 25.476627533407736, graph 0 to 28.158377800082235, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set arrow 1 from 26.817502666744986, graph 0 to 26.817502666744986, graph 1 nohead back lc rgb '#888888' dt 2
plot 'w2-means.dat' index 0 using 1:($6 > 0 ? NaN : $2):3:4:5 with xerrorbars pt 7 ps 1.1 lw 1.5 lc rgb variable, \
     'w2-means.dat' index 0 using 1:($6 > 0 ? $2 : NaN):3:4:5 with xerrorbars pt 6 ps 1.1 lw 1.5 lc rgb variable
unset object 1
unset arrow 1
unset label 2
unset multiplot
unset output

# w2: wall time of every run
set terminal svg size 800,181 dynamic noenhanced font 'sans,13' background '#ffffff'
rd_fs = 1
set output 'w2-runs.svg'
reset
set datafile missing '?'
set key off
set multiplot
set label 90 'w2: wall time of every run' at screen 0.5, screen 0.8896 center noenhanced font sprintf(',%g', 15 * rd_fs)
set label 91 '|' at screen 0.0200, screen 0.7461 tc rgb '#222222' font sprintf(',%g', 16 * rd_fs)
set label 92 'mean' at screen 0.0425, screen 0.7461 noenhanced
set lmargin at screen 0.1200
set rmargin at screen 0.8800
set tmargin at screen 0.6468
set bmargin at screen 0.3311
set yrange [1.6:-0.6]
set ytics ('date +%%s' 0, 'sleep 0.01' 1) noenhanced
set grid xtics lc rgb '#dddddd'
set border 3 lc rgb '#666666'
set tics nomirror scale 0.5 textcolor rgb '#000000'
set format x '%h'
set xlabel 'Wall time (ms)' noenhanced
set xrange [0:87.4029]
plot 'w2-runs.dat' index 0 using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 lc rgb variable, \
     'w2-runs.dat' index 0 using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 lc rgb variable, \
     'w2-runs.dat' index 1 using 1:($2-0.36):(0):(0.72) with vectors nohead lw 2 lc rgb '#222222'
do for [i=10:12] { unset label i }
unset label 2
unset multiplot
unset output
