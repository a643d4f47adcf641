// ResNet-18 at 224x224 imported without fusion (`usmp-translate --import-relax
// 'examples/models/resnet.py:resnet(size=224, config="resnet18")' --fusion none`), its
// buffers and live intervals after tir-to-usmp: each operator's workspace is one buffer
// for all calls of the operator, live in several intervals. `default` plans it at max-live
// and proves it (issue 34: it gave 7057328 bytes after spending its whole search budget).
// RUN: usmp-opt %s -p usmp-plan | filecheck %s
// CHECK: usmp.plan = #usmp.plan<"default", proven_optimal = true, time_limit_reached = false, lower_bounds = {global_workspace = 6538240}>
// CHECK-NEXT: usmp.pool @global_workspace workspace alignment 1 size 6538240

usmp.pool @global_workspace workspace alignment 1
%b0 = usmp.alloc_offset "pad_temp" [@global_workspace][?] align 16 live [75, 89) : memref<634800xi8>
%b1 = usmp.alloc_offset "pad_temp3" [@global_workspace][?] align 16 live [126, 140) [160, 174) [202, 216) [236, 250) : memref<861184xi8>
%b2 = usmp.alloc_offset "pad_temp12" [@global_workspace][?] align 16 live [693, 705) : memref<200704xi8>
%b3 = usmp.alloc_offset "pad_temp4" [@global_workspace][?] align 16 live [278, 292) : memref<861184xi8>
%b4 = usmp.alloc_offset "pad_temp5" [@global_workspace][?] align 16 live [312, 326) [379, 393) [413, 427) : memref<460800xi8>
%b5 = usmp.alloc_offset "pad_temp6" [@global_workspace][?] align 16 live [339, 351) : memref<802816xi8>
%b6 = usmp.alloc_offset "pad_temp7" [@global_workspace][?] align 16 live [455, 469) : memref<460800xi8>
%b7 = usmp.alloc_offset "pad_temp8" [@global_workspace][?] align 16 live [489, 503) [556, 570) [590, 604) : memref<262144xi8>
%b8 = usmp.alloc_offset "pad_temp9" [@global_workspace][?] align 16 live [516, 528) : memref<401408xi8>
%b9 = usmp.alloc_offset "pad_temp10" [@global_workspace][?] align 16 live [632, 646) : memref<262144xi8>
%b10 = usmp.alloc_offset "pad_temp11" [@global_workspace][?] align 16 live [666, 680) [733, 747) [767, 781) : memref<165888xi8>
%b11 = usmp.alloc_offset "lv" [@global_workspace][?] align 16 live [79, 97) : memref<3211264xi8>
%b12 = usmp.alloc_offset "conv2d_" [@global_workspace][?] align 16 live [93, 104) : memref<3211264xi8>
%b13 = usmp.alloc_offset "relu_" [@global_workspace][?] align 16 live [100, 112) : memref<3211264xi8>
%b14 = usmp.alloc_offset "max_pool2d_" [@global_workspace][?] align 16 live [112, 190) : memref<802816xi8>
%b15 = usmp.alloc_offset "lv2" [@global_workspace][?] align 16 live [130, 148) : memref<802816xi8>
%b16 = usmp.alloc_offset "conv2d1_" [@global_workspace][?] align 16 live [144, 155) : memref<802816xi8>
%b17 = usmp.alloc_offset "relu1_" [@global_workspace][?] align 16 live [151, 164) : memref<802816xi8>
%b18 = usmp.alloc_offset "lv4" [@global_workspace][?] align 16 live [164, 182) : memref<802816xi8>
%b19 = usmp.alloc_offset "conv2d2_" [@global_workspace][?] align 16 live [178, 190) : memref<802816xi8>
%b20 = usmp.alloc_offset "add_" [@global_workspace][?] align 16 live [186, 197) : memref<802816xi8>
%b21 = usmp.alloc_offset "relu2_" [@global_workspace][?] align 16 live [193, 266) : memref<802816xi8>
%b22 = usmp.alloc_offset "lv6" [@global_workspace][?] align 16 live [206, 224) : memref<802816xi8>
%b23 = usmp.alloc_offset "conv2d3_" [@global_workspace][?] align 16 live [220, 231) : memref<802816xi8>
%b24 = usmp.alloc_offset "relu3_" [@global_workspace][?] align 16 live [227, 240) : memref<802816xi8>
%b25 = usmp.alloc_offset "lv8" [@global_workspace][?] align 16 live [240, 258) : memref<802816xi8>
%b26 = usmp.alloc_offset "conv2d4_" [@global_workspace][?] align 16 live [254, 266) : memref<802816xi8>
%b27 = usmp.alloc_offset "add1_" [@global_workspace][?] align 16 live [262, 273) : memref<802816xi8>
%b28 = usmp.alloc_offset "relu4_" [@global_workspace][?] align 16 live [269, 343) : memref<802816xi8>
%b29 = usmp.alloc_offset "lv10" [@global_workspace][?] align 16 live [282, 300) : memref<401408xi8>
%b30 = usmp.alloc_offset "conv2d5_" [@global_workspace][?] align 16 live [296, 307) : memref<401408xi8>
%b31 = usmp.alloc_offset "relu5" [@global_workspace][?] align 16 live [303, 316) : memref<401408xi8>
%b32 = usmp.alloc_offset "lv12" [@global_workspace][?] align 16 live [316, 334) : memref<401408xi8>
%b33 = usmp.alloc_offset "conv2d6_" [@global_workspace][?] align 16 live [330, 367) : memref<401408xi8>
%b34 = usmp.alloc_offset "lv14" [@global_workspace][?] align 16 live [343, 359) : memref<401408xi8>
%b35 = usmp.alloc_offset "conv2d7_" [@global_workspace][?] align 16 live [355, 367) : memref<401408xi8>
%b36 = usmp.alloc_offset "add2_" [@global_workspace][?] align 16 live [363, 374) : memref<401408xi8>
%b37 = usmp.alloc_offset "relu6" [@global_workspace][?] align 16 live [370, 443) : memref<401408xi8>
%b38 = usmp.alloc_offset "lv16" [@global_workspace][?] align 16 live [383, 401) : memref<401408xi8>
%b39 = usmp.alloc_offset "conv2d8_" [@global_workspace][?] align 16 live [397, 408) : memref<401408xi8>
%b40 = usmp.alloc_offset "relu7" [@global_workspace][?] align 16 live [404, 417) : memref<401408xi8>
%b41 = usmp.alloc_offset "lv18" [@global_workspace][?] align 16 live [417, 435) : memref<401408xi8>
%b42 = usmp.alloc_offset "conv2d9_" [@global_workspace][?] align 16 live [431, 443) : memref<401408xi8>
%b43 = usmp.alloc_offset "add3_" [@global_workspace][?] align 16 live [439, 450) : memref<401408xi8>
%b44 = usmp.alloc_offset "relu8" [@global_workspace][?] align 16 live [446, 520) : memref<401408xi8>
%b45 = usmp.alloc_offset "lv20" [@global_workspace][?] align 16 live [459, 477) : memref<200704xi8>
%b46 = usmp.alloc_offset "conv2d10_" [@global_workspace][?] align 16 live [473, 484) : memref<200704xi8>
%b47 = usmp.alloc_offset "relu9" [@global_workspace][?] align 16 live [480, 493) : memref<200704xi8>
%b48 = usmp.alloc_offset "lv22" [@global_workspace][?] align 16 live [493, 511) : memref<200704xi8>
%b49 = usmp.alloc_offset "conv2d11" [@global_workspace][?] align 16 live [507, 544) : memref<200704xi8>
%b50 = usmp.alloc_offset "lv24" [@global_workspace][?] align 16 live [520, 536) : memref<200704xi8>
%b51 = usmp.alloc_offset "conv2d12" [@global_workspace][?] align 16 live [532, 544) : memref<200704xi8>
%b52 = usmp.alloc_offset "add4_" [@global_workspace][?] align 16 live [540, 551) : memref<200704xi8>
%b53 = usmp.alloc_offset "relu10" [@global_workspace][?] align 16 live [547, 620) : memref<200704xi8>
%b54 = usmp.alloc_offset "lv26" [@global_workspace][?] align 16 live [560, 578) : memref<200704xi8>
%b55 = usmp.alloc_offset "conv2d13" [@global_workspace][?] align 16 live [574, 585) : memref<200704xi8>
%b56 = usmp.alloc_offset "relu11" [@global_workspace][?] align 16 live [581, 594) : memref<200704xi8>
%b57 = usmp.alloc_offset "lv28" [@global_workspace][?] align 16 live [594, 612) : memref<200704xi8>
%b58 = usmp.alloc_offset "conv2d14" [@global_workspace][?] align 16 live [608, 620) : memref<200704xi8>
%b59 = usmp.alloc_offset "add5_" [@global_workspace][?] align 16 live [616, 627) : memref<200704xi8>
%b60 = usmp.alloc_offset "relu12" [@global_workspace][?] align 16 live [623, 697) : memref<200704xi8>
%b61 = usmp.alloc_offset "lv30" [@global_workspace][?] align 16 live [636, 654) : memref<100352xi8>
%b62 = usmp.alloc_offset "conv2d15" [@global_workspace][?] align 16 live [650, 661) : memref<100352xi8>
%b63 = usmp.alloc_offset "relu13" [@global_workspace][?] align 16 live [657, 670) : memref<100352xi8>
%b64 = usmp.alloc_offset "lv32" [@global_workspace][?] align 16 live [670, 688) : memref<100352xi8>
%b65 = usmp.alloc_offset "conv2d16" [@global_workspace][?] align 16 live [684, 721) : memref<100352xi8>
%b66 = usmp.alloc_offset "lv34" [@global_workspace][?] align 16 live [697, 713) : memref<100352xi8>
%b67 = usmp.alloc_offset "conv2d17" [@global_workspace][?] align 16 live [709, 721) : memref<100352xi8>
%b68 = usmp.alloc_offset "add6_" [@global_workspace][?] align 16 live [717, 728) : memref<100352xi8>
%b69 = usmp.alloc_offset "relu14" [@global_workspace][?] align 16 live [724, 797) : memref<100352xi8>
%b70 = usmp.alloc_offset "lv36" [@global_workspace][?] align 16 live [737, 755) : memref<100352xi8>
%b71 = usmp.alloc_offset "conv2d18" [@global_workspace][?] align 16 live [751, 762) : memref<100352xi8>
%b72 = usmp.alloc_offset "relu15" [@global_workspace][?] align 16 live [758, 771) : memref<100352xi8>
%b73 = usmp.alloc_offset "lv38" [@global_workspace][?] align 16 live [771, 789) : memref<100352xi8>
%b74 = usmp.alloc_offset "conv2d19" [@global_workspace][?] align 16 live [785, 797) : memref<100352xi8>
%b75 = usmp.alloc_offset "add7_" [@global_workspace][?] align 16 live [793, 804) : memref<100352xi8>
%b76 = usmp.alloc_offset "relu16" [@global_workspace][?] align 16 live [800, 814) : memref<100352xi8>
%b77 = usmp.alloc_offset "sum_" [@global_workspace][?] align 16 live [807, 819) : memref<2048xi8>
%b78 = usmp.alloc_offset "mul" [@global_workspace][?] align 16 live [817, 835) : memref<2048xi8>
%b79 = usmp.alloc_offset "permute_dims" [@global_workspace][?] align 16 live [822, 835) : memref<20480xi8>
%b80 = usmp.alloc_offset "matmul_" [@global_workspace][?] align 16 live [829, 841) : memref<40xi8>
%b81 = usmp.alloc_offset "pad_temp2" [@global_workspace][?] align 16 live [108, 121) : memref<3326976xi8>
usmp.liveness
