#!/usr/bin/env python3
"""Writes lap_joint.msh (Gmsh format 2.2): a lap joint of two steel blocks (hex8) for the
joint-dynamics tests. Lower block x in [0, 0.1], upper block x in [0.05, 0.15] on top of it
(z in [0.02, 0.04]), both 0.05 m wide and 0.02 m thick, 4 x 2 x 1 cells each, separate
nodes on the touching faces. Physical groups: volumes lower, upper; faces <block>_xmin,
<block>_xmax, lower_joint / upper_joint (the touching faces in the overlap x in [0.05, 0.1],
outward normals)."""
nodes, elems, phys = [], [], {}


def tag(name, dim):
    if name not in phys:
        phys[name] = (dim, len(phys) + 1)
    return phys[name][1]


nx, ny, dx, dy, t = 4, 2, 0.025, 0.025, 0.02


def block(x0, z0, name, joint_face):
    ids = {}
    for k in range(2):
        for j in range(ny + 1):
            for i in range(nx + 1):
                nodes.append((x0 + dx * i, dy * j, z0 + t * k))
                ids[(i, j, k)] = len(nodes)
    for j in range(ny):
        for i in range(nx):
            def n(a, b, c):
                return ids[(i + a, j + b, c)]
            elems.append((5, tag(name, 3), [n(0, 0, 0), n(1, 0, 0), n(1, 1, 0), n(0, 1, 0),
                                            n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1)]))
            xc = x0 + dx * (i + 0.5)
            if 0.05 < xc < 0.1:
                if joint_face == 'top':
                    elems.append((3, tag(name + '_joint', 2),
                                  [n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1)]))
                else:
                    elems.append((3, tag(name + '_joint', 2),
                                  [n(0, 0, 0), n(0, 1, 0), n(1, 1, 0), n(1, 0, 0)]))
    for j in range(ny):
        def a(i, b, c):
            return ids[(i, j + b, c)]
        elems.append((3, tag(name + '_xmin', 2), [a(0, 0, 0), a(0, 0, 1), a(0, 1, 1), a(0, 1, 0)]))
        elems.append((3, tag(name + '_xmax', 2), [a(nx, 0, 0), a(nx, 1, 0), a(nx, 1, 1), a(nx, 0, 1)]))


block(0.0, 0.0, 'lower', 'top')
block(0.05, t, 'upper', 'bottom')
with open('lap_joint.msh', 'w') as f:
    f.write('$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n%d\n' % len(phys))
    for name, (d, tg) in phys.items():
        f.write('%d %d "%s"\n' % (d, tg, name))
    f.write('$EndPhysicalNames\n$Nodes\n%d\n' % len(nodes))
    for i, (x, y, z) in enumerate(nodes):
        f.write('%d %.17g %.17g %.17g\n' % (i + 1, x, y, z))
    f.write('$EndNodes\n$Elements\n%d\n' % len(elems))
    for i, (ty, p, ns) in enumerate(elems):
        f.write('%d %d 2 %d %d %s\n' % (i + 1, ty, p, p, ' '.join(map(str, ns))))
    f.write('$EndElements\n')
