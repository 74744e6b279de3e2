import ctypes, sys
vk = ctypes.CDLL('libvulkan.so.1')
class AI(ctypes.Structure):
    _fields_ = [('sType', ctypes.c_int), ('pNext', ctypes.c_void_p), ('pApplicationName', ctypes.c_char_p), ('applicationVersion', ctypes.c_uint32), ('pEngineName', ctypes.c_char_p), ('engineVersion', ctypes.c_uint32), ('apiVersion', ctypes.c_uint32)]
class CI(ctypes.Structure):
    _fields_ = [('sType', ctypes.c_int), ('pNext', ctypes.c_void_p), ('flags', ctypes.c_uint32), ('pApplicationInfo', ctypes.POINTER(AI)), ('l', ctypes.c_uint32), ('pl', ctypes.c_void_p), ('e', ctypes.c_uint32), ('pe', ctypes.c_void_p)]
ai = AI(0, None, b'p', 1, b'p', 1, (1 << 22) | (1 << 12))
ci = CI(1, None, 0, ctypes.pointer(ai), 0, None, 0, None)
inst = ctypes.c_void_p()
r = vk.vkCreateInstance(ctypes.byref(ci), None, ctypes.byref(inst))
print('vkCreateInstance', r)
if r == 0:
    n = ctypes.c_uint32(0)
    print('vkEnumeratePhysicalDevices', vk.vkEnumeratePhysicalDevices(inst, ctypes.byref(n), None), n.value)
